import { eq } from 'drizzle-orm';
import type { Env } from '../../config/env.ts';
import { hashPassword } from '../../plugins/passwords.ts';
import type { Db } from '../client.ts';
import { events, staff, staffEvents } from '../schema/index.ts';

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
  {
    email: 'gerente@passada.com.br',
    name: 'Gabriela Gerente',
    role: 'gerente',
    password: 'painel-demo-2026',
  },
  {
    email: 'financeiro@passada.com.br',
    name: 'Fábio Financeiro',
    role: 'financeiro',
    password: 'painel-demo-2026',
  },
  { email: 'estoque@passada.com.br', name: 'Estela Estoque', role: 'estoque', password: 'painel-demo-2026' },
  /** A kit-desk volunteer: the check-in of DEMO_CHECKIN_EVENT only. */
  {
    email: 'checkin@passada.com.br',
    name: 'Vítor Voluntário',
    role: 'checkin',
    password: 'painel-demo-2026',
  },
] as const;

/** The demo event the demo check-in volunteer is assigned to (db/seed/events.ts). */
export const DEMO_CHECKIN_EVENT = 'Corrida do Sol Nascente';

/** Runs after the demo events, so the volunteer's event exists. */
export async function seedStaff(db: Db): Promise<void> {
  const hash = await hashPassword(DEMO_STAFF[0].password);
  const rows = await db
    .insert(staff)
    .values(DEMO_STAFF.map((s) => ({ email: s.email, name: s.name, role: s.role, passwordHash: hash })))
    .onConflictDoNothing()
    .returning();
  const volunteer = rows.find((r) => r.role === 'checkin');
  const [event] = await db.select({ id: events.id }).from(events).where(eq(events.name, DEMO_CHECKIN_EVENT));
  if (volunteer && event) {
    await db.insert(staffEvents).values({ staffId: volunteer.id, eventId: event.id }).onConflictDoNothing();
  }
}
