import fp from 'fastify-plugin';
import { createStaffService } from './staff.service.ts';

export {
  type AuditActor,
  type AuditEntry,
  type AuditOf,
  actor,
  audit,
  audited,
  auditedAfter,
  creation,
  pruneAuditBefore,
  SYSTEM_ACTOR,
} from './audit.ts';
export {
  declarePainelRoute,
  NO_PERMISSION,
  PAINEL_ERRORS,
  type PainelRouteConfig,
  painelGuard,
  painelRequestGuard,
  staffToken,
} from './guard.ts';
export { createStaffService, type StaffRow, type StaffService, toStaffWire } from './staff.service.ts';

/**
 * Staff accounts of the back office (docs/decisions/0023, 0030): sessions, two-step sign-in and
 * recovery codes, the sign-in throttle, the guard and permissions, and the audit log. The low module:
 * it imports no other, and the back office's HTTP face (modules/painel) and every module may use it.
 */
export default fp(
  async (app) => {
    const staff = createStaffService({ db: app.db, env: app.env, now: app.now });
    app.decorate('staff', staff);
    for (const note of await staff.secureOnStart()) app.log.warn(note);
  },
  { name: 'staff', dependencies: ['infra'] },
);
