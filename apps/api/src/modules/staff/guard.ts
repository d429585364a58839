import { ApiErrorSchema } from '@passada/core/contracts/common';
import { type PainelAction, type StaffRole, staffCan } from '@passada/core/contracts/painel';
import type { FastifyRequest } from 'fastify';
import { HttpError, unauthorized } from '../../plugins/errors.ts';
import type { StaffRow } from './staff.repository.ts';
import type { StaffService } from './staff.service.ts';

/** The refusals a back-office route that reads and changes one record may answer (its OpenAPI responses). */
export const PAINEL_ERRORS = {
  400: ApiErrorSchema,
  401: ApiErrorSchema,
  403: ApiErrorSchema,
  404: ApiErrorSchema,
  409: ApiErrorSchema,
};

/** What a back-office route lets through; the one guard of `/api/painel/` reads it. */
export interface PainelRouteConfig {
  /** Sign-in itself: the only route open without a staff token. */
  public?: boolean;
  /** Roles allowed; absent means every staff member. */
  roles?: StaffRole[];
  /** Routes a person must reach to turn on 2FA when PAINEL_REQUIRE_2FA makes it mandatory. */
  allowWithout2fa?: boolean;
  /**
   * What the route does that not every role may do (core's PAINEL_ACTION_ROLES says who may). A
   * function when it depends on the request, e.g. the status an order is moved to; it runs once the
   * body is validated and answers undefined when this request needs no permission.
   */
  action?: PainelAction | ((request: FastifyRequest) => PainelAction | undefined);
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Staff accounts, sessions, two-step sign-in and the audit log of the back office. */
    staff: StaffService;
  }
  interface FastifyRequest {
    /** The signed-in staff member on `/api/painel/` routes (the guard sets it). */
    staff: StaffRow | null;
  }
  interface FastifyContextConfig {
    painel?: PainelRouteConfig;
  }
}

export const ADMIN_ONLY = { painel: { roles: ['admin'] } } satisfies { painel: PainelRouteConfig };

const NO_PERMISSION = 'Seu perfil não tem acesso a esta função.';

function refuseAction(member: StaffRow, action: PainelAction | undefined) {
  if (action && !staffCan(member.role, action)) throw new HttpError(403, NO_PERMISSION, 'sem_permissao');
}

export function staffToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  return (header ? /^(?:Token|Bearer)\s+(\S+)$/i.exec(header) : null)?.[1] ?? null;
}

/** The signed-in staff member of a guarded route (the guard has already refused everyone else). */
export function actor(request: FastifyRequest): StaffRow {
  if (!request.staff) throw unauthorized('Entre no painel para continuar.');
  return request.staff;
}

/** The one guard of the whole prefix: anonymous calls and customer tokens never pass. */
export function painelGuard(staff: StaffService) {
  return async (request: FastifyRequest) => {
    const config = request.routeOptions.config.painel ?? {};
    if (config.public) return;
    const token = staffToken(request);
    const member = token ? await staff.fromToken(token) : undefined;
    if (!member) throw unauthorized('Entre no painel para continuar.');
    request.staff = member;
    if (staff.mustSetUp2fa(member) && !config.allowWithout2fa) {
      throw new HttpError(403, 'Ative a verificação em duas etapas para usar o painel.', '2fa_obrigatorio');
    }
    if (config.roles && !config.roles.includes(member.role)) {
      throw new HttpError(403, NO_PERMISSION, 'sem_permissao');
    }
    if (typeof config.action === 'string') refuseAction(member, config.action);
  };
}

/**
 * The half of the guard that needs the validated body: a route whose action depends on the request
 * (`config.painel.action` as a function) is refused here, before its handler runs.
 */
export async function painelActionGuard(request: FastifyRequest) {
  const action = request.routeOptions.config.painel?.action;
  if (typeof action !== 'function' || !request.staff) return;
  refuseAction(request.staff, action(request));
}
