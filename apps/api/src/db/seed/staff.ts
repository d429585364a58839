import type { Env } from '../../config/env.ts';
import { hashPassword } from '../../plugins/passwords.ts';
import type { Db } from '../client.ts';
import { staff } from '../schema/index.ts';

/** The demo back-office logins; the README gives them. Never seeded outside demo data. */
/**
 * The demo staff logins exist only in a demo shop: with real payments they would be a known admin
 * (docs/decisions/0023).
 */
export const demoStaffAllowed = (env: Pick<Env, 'PAYMENTS'>) => env.PAYMENTS === 'simulado';

export const DEMO_STAFF = [
  { email: 'admin@passada.com.br', name: 'Ana Administradora', role: 'admin', password: 'painel-demo-2026' },
  {
    email: 'operador@passada.com.br',
    name: 'Otávio Operador',
    role: 'operador',
    password: 'painel-demo-2026',
  },
] as const;

export async function seedStaff(db: Db): Promise<void> {
  const hash = await hashPassword(DEMO_STAFF[0].password);
  await db
    .insert(staff)
    .values(DEMO_STAFF.map((s) => ({ email: s.email, name: s.name, role: s.role, passwordHash: hash })))
    .onConflictDoNothing();
}
