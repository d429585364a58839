import { ApiErrorSchema } from '@passada/core/contracts/common';
import {
  EVENT_SCOPED_ROLES,
  type PainelPermission,
  ROLE_PERMISSIONS,
  staffCan,
} from '@passada/core/contracts/painel';
import type { FastifyRequest, RouteOptions } from 'fastify';
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

/**
 * What a back-office route lets through; the one guard of `/api/painel/` reads it. Every route says
 * exactly one of `public`, `ownAccount` or `permission`: a route that says none refuses to register
 * (docs/decisions/0032-permissions-per-action.md).
 */
export interface PainelRouteConfig {
  /** Sign-in itself: the only route open without a staff token. */
  public?: boolean;
  /** One's own session, password and two-step sign-in: every signed-in member. */
  ownAccount?: boolean;
  /** What the route needs (core's ROLE_PERMISSIONS says which roles have it); a list: any of them. */
  permission?: PainelPermission | readonly PainelPermission[];
  /**
   * What this request needs besides `permission` when it depends on the request, e.g. the status an
   * order is moved to; it runs once the body is validated and answers undefined when nothing more.
   */
  alsoNeeds?: (request: FastifyRequest) => PainelPermission | undefined;
  /**
   * The event the request acts on: a member of an event-scoped role (`checkin`) passes only for the
   * events assigned to them. A route without it refuses those members, unless it is `scopedList`.
   */
  event?: (request: FastifyRequest) => number;
  /** A list the route itself narrows to the member's events (`checkinEventsOf`). */
  scopedList?: boolean;
  /** Routes a person must reach to turn on 2FA when PAINEL_REQUIRE_2FA makes it mandatory. */
  allowWithout2fa?: boolean;
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

/** The one Portuguese refusal of a role without the permission (403 `sem_permissao`). */
export const NO_PERMISSION = 'Seu perfil não tem acesso a esta função.';
const NOT_YOUR_EVENT = 'Você não está designado para o check-in deste evento.';

const refuse = (message = NO_PERMISSION) => new HttpError(403, message, 'sem_permissao');

/** The permissions a route declares, as a list (empty for public and own-account routes). */
export function declaredPermissions(config: PainelRouteConfig | undefined): readonly PainelPermission[] {
  const p = config?.permission;
  return p === undefined ? [] : typeof p === 'string' ? [p] : p;
}

/**
 * Run on every route the painel registers: a route that declares neither `public`, `ownAccount` nor a
 * permission is a programming error and stops the start; the OpenAPI document lists what each needs
 * (`x-permissao`) and marks every staff-only operation, so the authentication sweep covers them.
 */
export function declarePainelRoute(route: RouteOptions, securityScheme: string) {
  const config = route.config?.painel;
  const needs = declaredPermissions(config);
  const ways = [config?.public, config?.ownAccount, needs.length > 0].filter(Boolean).length;
  if (ways !== 1) {
    throw new Error(
      `Rota do painel ${String(route.method)} ${route.url} sem permissão declarada: diga config.painel.permission (ou public / ownAccount).`,
    );
  }
  if (config?.public) return;
  route.schema = {
    ...route.schema,
    security: [{ [securityScheme]: [] }],
    ...(needs.length ? { 'x-permissao': needs } : {}),
  } as typeof route.schema;
}

export function staffToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  return (header ? /^(?:Token|Bearer)\s+(\S+)$/i.exec(header) : null)?.[1] ?? null;
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
    if (config.ownAccount) return;
    const needs = declaredPermissions(config);
    // Never open by default: a route that declares nothing is refused even if it slipped past onRoute.
    if (!needs.length || !staffCan(member.role, needs)) throw refuse();
    if (EVENT_SCOPED_ROLES.includes(member.role) && !config.event && !config.scopedList) throw refuse();
  };
}

/**
 * The half of the guard that needs the validated request: a further permission (`alsoNeeds`) and, for
 * an event-scoped member, the event the request names (checked against `staff_events`).
 */
export function painelRequestGuard(staff: StaffService) {
  return async (request: FastifyRequest) => {
    const config = request.routeOptions.config.painel;
    const member = request.staff;
    if (!config || !member) return;
    const more = config.alsoNeeds?.(request);
    if (more && !ROLE_PERMISSIONS[member.role].includes(more)) throw refuse();
    if (config.event && EVENT_SCOPED_ROLES.includes(member.role)) {
      const mine = await staff.checkinEventsOf(member);
      if (!mine?.includes(config.event(request))) throw refuse(NOT_YOUR_EVENT);
    }
  };
}
