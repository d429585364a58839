import { type SQL, sql } from 'drizzle-orm';
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
  /** Notes or tags staff keep on the customer (docs/decisions/0080). */
  staffNotes: boolean;
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
                         where r.account_user_id = u.id and r.whatsapp_consentimento_em is not null)) as whatsapp,
           (exists (select 1 from customer_notes n where n.user_id = u.id)
             or exists (select 1 from customer_tags g where g.user_id = u.id)) as staff_notes
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
      staff_notes: boolean;
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
    staffNotes: Boolean(r.staff_notes),
  }));
}

/** Someone of an incident export without a line of their own in the accounts table. */
export interface IncidentPerson {
  /** Where the shop holds them. */
  source: 'whatsapp' | 'email' | 'lista_de_espera' | 'transferencia_recebida' | 'transferencia_feita';
  name: string;
  /** The e-mail or the WhatsApp number, what the notice is sent to. */
  contact: string;
  /** When the shop first held it (the oldest row still kept). */
  since: Date;
  /** What the shop holds of them, as the notice names it. */
  data: string;
}

/**
 * A phone as the WhatsApp messages write it (`55` + DDD + number), in SQL: core's `normalizePhone`
 * (punctuation, +55 and the trunk 0 dropped) with the country code put back.
 */
const whatsappDigits = (column: SQL) => sql`'55' || (
  select case when length(n) in (11, 12) and n like '0%' then substr(n, 2) else n end
    from (select case when length(d) in (12, 13) and d like '55%' then substr(d, 3) else d end as n
            from (select regexp_replace(coalesce(${column}, ''), '\\D', '', 'g') as d) digits) national)`;

/**
 * The people whose data the shop held in [from, to] without an account line of their own
 * (Resolução CD/ANPD 15/2024): WhatsApp numbers and e-mail addresses in `message_log` and
 * `whatsapp_opt_outs` that belong to no live account (its e-mail, or a phone of its addresses,
 * orders or registrations), the people in a waitlist, and both sides of registration transfers whose
 * data is not erased yet. Each with what is held of them; rows created after `to` are not counted.
 */
export async function othersHeldBetween(db: Db | Tx, _from: Date, to: Date): Promise<IncidentPerson[]> {
  const until = to.toISOString();
  const result = (await db.execute(sql`
    with account_phones as (
      select ${whatsappDigits(sql`a.phone`)} as phone
        from addresses a join users u on u.id = a.user_id and u.deleted_at is null
      union
      select ${whatsappDigits(sql`o.address->>'phone'`)}
        from orders o join users u on u.id = o.user_id and u.deleted_at is null
      union
      select ${whatsappDigits(sql`r.numero_contato`)}
        from registrations r join users u on u.id = r.account_user_id and u.deleted_at is null
    ),
    account_emails as (select lower(email) as email from users where deleted_at is null),
    phones as (
      select recipient as contact, min(created_at) as since, count(*) as messages, null::timestamptz as stop
        from message_log where channel = 'whatsapp' and created_at <= ${until} group by recipient
      union all
      select phone, created_at, 0, requested_at from whatsapp_opt_outs where created_at <= ${until}
    )
    select 'whatsapp' as source, '' as name, contact, min(since) as since,
           sum(messages) as messages, max(stop) as stop
      from phones
     where contact not in (select phone from account_phones)
     group by contact
    union all
    select 'email', '', lower(recipient), min(created_at), count(*), null
      from message_log
     where channel = 'email' and created_at <= ${until}
       and lower(recipient) not in (select email from account_emails)
     group by lower(recipient)
    union all
    select 'lista_de_espera', w.nome_completo, w.email, w.created_at, 0, null
      from waitlist_entries w where w.created_at <= ${until}
    union all
    select 'transferencia_recebida', t.to_name, t.to_email, t.created_at, 0, null
      from registration_transfers t where t.created_at <= ${until} and (t.to_email <> '' or t.to_cpf <> '')
    union all
    select 'transferencia_feita', t.from_name, t.from_email, t.created_at, 0, null
      from registration_transfers t where t.created_at <= ${until} and t.from_email <> ''
    order by 1, 4, 3`)) as {
    rows: Array<{
      source: IncidentPerson['source'];
      name: string;
      contact: string;
      since: string | Date;
      messages: number | string;
      stop: string | Date | null;
    }>;
  };
  const DATA: Record<IncidentPerson['source'], (r: (typeof result.rows)[number]) => string> = {
    whatsapp: (r) =>
      [
        Number(r.messages) > 0 ? `número de WhatsApp no registro de mensagens (${Number(r.messages)})` : null,
        r.stop ? 'pedido para parar as mensagens (número, palavra enviada e data)' : null,
      ]
        .filter(Boolean)
        .join('; '),
    email: (r) => `e-mail no registro de mensagens (${Number(r.messages)})`,
    lista_de_espera: () => 'lista de espera: nome, CPF e e-mail',
    transferencia_recebida: () => 'transferência de inscrição recebida: nome, CPF e e-mail',
    transferencia_feita: () => 'transferência de inscrição feita: nome e e-mail',
  };
  return result.rows.map((r) => ({
    source: r.source,
    name: r.name,
    contact: r.contact,
    since: new Date(r.since),
    data: DATA[r.source](r),
  }));
}
