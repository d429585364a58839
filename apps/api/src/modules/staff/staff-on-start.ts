import { EnvError } from '../../config/env.ts';
import { DEMO_STAFF, demoStaffAllowed } from '../../db/seed/staff.ts';
import {
  COMMON_PASSWORD_MESSAGE,
  hashPassword,
  isCommonPassword,
  verifyPassword,
} from '../../plugins/passwords.ts';
import { audit, SYSTEM_ACTOR } from './audit.ts';
import * as repo from './staff.repository.ts';
import { type StaffServiceDeps, toStaffWire } from './staff-wire.ts';

/**
 * At every start (docs/decisions/0023): ADMIN_EMAIL ends as an active admin (created with
 * ADMIN_PASSWORD when missing; promoted or reactivated, audited, when not; an existing password is
 * never overwritten, the person may have changed it), or the start fails saying why. Outside a demo
 * shop, a demo login that still has the README's password is deactivated.
 */
export async function secureStaffOnStart(deps: StaffServiceDeps): Promise<string[]> {
  const { db, env } = deps;
  const notes: string[] = [];
  if (!demoStaffAllowed(env)) {
    for (const demo of DEMO_STAFF) {
      const row = await repo.findStaffByEmail(db, demo.email);
      if (!row?.active || !(await verifyPassword(row.passwordHash, demo.password))) continue;
      await db.transaction(async (tx) => {
        const after = (await repo.updateStaff(tx, row.id, { active: false }))!;
        await repo.revokeAllSessions(tx, row.id, deps.now());
        await audit(tx, SYSTEM_ACTOR, {
          action: 'desativado_no_inicio',
          entity: 'equipe',
          entityId: row.id,
          before: toStaffWire(row),
          after: toStaffWire(after),
        });
      });
      notes.push(`Conta de demonstração ${row.email} desativada: a senha dela é pública.`);
    }
  }
  const { ADMIN_EMAIL, ADMIN_PASSWORD, ADMIN_NAME } = env;
  if (!ADMIN_EMAIL || !ADMIN_PASSWORD) return notes;
  const existing = await repo.findStaffByEmail(db, ADMIN_EMAIL);
  if (!existing) {
    if (isCommonPassword(ADMIN_PASSWORD)) {
      throw new EnvError(`Configuração inválida no ambiente:\n  ADMIN_PASSWORD: ${COMMON_PASSWORD_MESSAGE}`);
    }
    const created = await repo.insertStaff(db, {
      email: ADMIN_EMAIL,
      name: ADMIN_NAME,
      role: 'admin',
      passwordHash: await hashPassword(ADMIN_PASSWORD),
    });
    // Another process starting at once may have created it: then it is checked below like any.
    if (created) {
      await audit(db, SYSTEM_ACTOR, {
        action: 'criado_no_inicio',
        entity: 'equipe',
        entityId: created.id,
        after: toStaffWire(created),
      });
      return [...notes, `Administrador criado a partir de ADMIN_EMAIL: ${created.email}`];
    }
  }
  const row = existing ?? (await repo.findStaffByEmail(db, ADMIN_EMAIL));
  if (!row) throw new EnvError(`ADMIN_EMAIL: a conta ${ADMIN_EMAIL} não pôde ser criada.`);
  if (row.role === 'admin' && row.active) return notes;
  // A demo login just deactivated above must not come back with its public password.
  const demo = DEMO_STAFF.find((d) => d.email === row.email);
  if (!demoStaffAllowed(env) && demo && (await verifyPassword(row.passwordHash, demo.password))) {
    throw new EnvError(
      `Configuração inválida no ambiente:\n  ADMIN_EMAIL: ${row.email} é uma conta de demonstração com ` +
        'a senha pública; use outro e-mail.',
    );
  }
  await db.transaction(async (tx) => {
    const after = (await repo.updateStaff(tx, row.id, { role: 'admin', active: true }))!;
    await audit(tx, SYSTEM_ACTOR, {
      action: 'promovido_no_inicio',
      entity: 'equipe',
      entityId: row.id,
      before: toStaffWire(row),
      after: toStaffWire(after),
    });
  });
  return [...notes, `ADMIN_EMAIL: ${row.email} agora é administrador ativo (a senha dela não foi alterada).`];
}
