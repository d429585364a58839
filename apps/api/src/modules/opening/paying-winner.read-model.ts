import { sql } from 'drizzle-orm';

/**
 * A lottery winner paying right now (docs/decisions/0051): a charge for the entry's CPF still holds a
 * place in its event and has not become a registration yet. That charge ends it; the entry stays as it
 * is until then. A read across payments and registrations (their charges, holds and registrations),
 * for the lottery entry `l` of the statement it goes in (docs/architecture.md §9: read models only read).
 */
export const PAYING_WINNER = sql`(l.won_in_draw is not null and exists (
  select 1 from place_reservations pr
    join charges c on c.id = pr.charge_id
    join event_categories ec on ec.id = pr.category_id
    join event_days d on d.id = ec.day_id
   where d.event_id = l.event_id and pr.released_at is null and c.draft->>'cpf' = l.cpf
     and not exists (select 1 from registrations r where r.charge_id = pr.charge_id and r.event_id = l.event_id)))`;
