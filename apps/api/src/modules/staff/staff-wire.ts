import { EVENT_SCOPED_ROLES, type Staff, type StaffRole } from '@passada/core/contracts/painel';
import type { Env } from '../../config/env.ts';
import type { Db, Tx } from '../../db/client.ts';
import { badRequest } from '../../plugins/errors.ts';
import { COMMON_PASSWORD_MESSAGE, isCommonPassword } from '../../plugins/passwords.ts';
import * as repo from './staff.repository.ts';

/** What the staff service's steps need (sign-in, members, the start's checks). */
export interface StaffServiceDeps {
  db: Db;
  env: Env;
  now: () => Date;
}

/** A member on the wire; `eventIds` are the events assigned to a check-in volunteer. */
export const toStaffWire = (row: repo.StaffRow, eventIds: number[] = []): Staff => ({
  id: row.id,
  email: row.email,
  name: row.name,
  role: row.role,
  totp_enabled: row.totpEnabled,
  active: row.active,
  eventos: eventIds,
});

/** A member on the wire with the events assigned to them. */
export async function withEvents(conn: Db | Tx, row: repo.StaffRow): Promise<Staff> {
  return toStaffWire(row, (await repo.staffEventIds(conn, [row.id])).get(row.id) ?? []);
}

export const eventScoped = (role: StaffRole) => EVENT_SCOPED_ROLES.includes(role);

/** The same e-mail however it is typed: the key its sign-in failures count under. */
export const normaliseEmail = (email: string) => email.trim().toLowerCase();

export const loginKey = (email: string) => `login:${normaliseEmail(email)}`;

export function refuseCommonPassword(password: string, field: string) {
  if (isCommonPassword(password)) {
    throw badRequest(COMMON_PASSWORD_MESSAGE, 'validation_error', { [field]: COMMON_PASSWORD_MESSAGE });
  }
}
