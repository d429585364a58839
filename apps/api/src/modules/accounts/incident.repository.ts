import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';

/** One account of an incident export: who, and which kinds of personal data the shop held of it. */
export interface IncidentAccount {
  id: number;
  name: string;
  email: string;
  createdAt: Date;
  deletedAt: Date | null;
  addresses: number;
  orders: number;
  registrations: number;
  /** Registrations of the account still holding a PCD answer (health data). */
  healthData: number;
  whatsappConsent: boolean;
}

/**
 * Every account whose data the shop held at some moment of [from, to]: created by `to` and not yet
 * erased at `from` (Resolução CD/ANPD 15/2024: the people to notify of an incident in that window),
 * with how many addresses, orders and registrations it holds and whether health data is among them.
 */
export async function accountsHeldBetween(db: Db | Tx, from: Date, to: Date): Promise<IncidentAccount[]> {
  const result = (await db.execute(sql`
    select u.id, u.full_name as name, u.email, u.created_at, u.deleted_at,
           (select count(*) from addresses a where a.user_id = u.id) as addresses,
           (select count(*) from orders o where o.user_id = u.id) as orders,
           (select count(*) from registrations r where r.account_user_id = u.id) as registrations,
           (select count(*) from registrations r where r.account_user_id = u.id and r.pcd) as health_data,
           (exists (select 1 from orders o where o.user_id = u.id and o.whatsapp_consentimento_em is not null)
             or exists (select 1 from registrations r
                         where r.account_user_id = u.id and r.whatsapp_consentimento_em is not null)) as whatsapp
      from users u
     where u.created_at <= ${to.toISOString()}
       and (u.deleted_at is null or u.deleted_at >= ${from.toISOString()})
     order by u.id`)) as {
    rows: Array<{
      id: number;
      name: string;
      email: string;
      created_at: string | Date;
      deleted_at: string | Date | null;
      addresses: number | string;
      orders: number | string;
      registrations: number | string;
      health_data: number | string;
      whatsapp: boolean;
    }>;
  };
  return result.rows.map((r) => ({
    id: Number(r.id),
    name: r.name,
    email: r.email,
    createdAt: new Date(r.created_at),
    deletedAt: r.deleted_at ? new Date(r.deleted_at) : null,
    addresses: Number(r.addresses),
    orders: Number(r.orders),
    registrations: Number(r.registrations),
    healthData: Number(r.health_data),
    whatsappConsent: Boolean(r.whatsapp),
  }));
}
