import { createStaffMembers } from './staff-members.ts';
import { secureStaffOnStart } from './staff-on-start.ts';
import { createStaffSignIn } from './staff-sign-in.ts';
import type { StaffServiceDeps } from './staff-wire.ts';

export type { StaffRow } from './staff.repository.ts';
export { RECOVERY_CODE_COUNT } from './staff-sign-in.ts';
export { normaliseEmail, type StaffServiceDeps, toStaffWire } from './staff-wire.ts';

/**
 * Staff accounts, their sessions and two-factor sign-in; customers' accounts are never consulted. In
 * named steps: a member's own sign-in and security (`staff-sign-in.ts`), the admin's side
 * (`staff-members.ts`) and the checks of every start (`staff-on-start.ts`).
 */
export function createStaffService(deps: StaffServiceDeps) {
  return {
    ...createStaffSignIn(deps),
    ...createStaffMembers(deps),
    secureOnStart: () => secureStaffOnStart(deps),
  };
}

export type StaffService = ReturnType<typeof createStaffService>;
