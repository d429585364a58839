/**
 * Runners for the bench, written straight in SQL on PostgreSQL (the API would take minutes for tens of
 * thousands): a paid charge and a registration each, in the demo event's first category.
 */
import type pg from 'pg';

export interface BenchEvent {
  eventId: number;
  categoryId: number;
}

/**
 * `count` paid registrations named `<prefix> <n>`, their charges' txids and e-mails marked with
 * `prefix`; `bib(id)` as SQL on the registration's id gives the bib (null: none). Answers the event.
 */
export async function insertBenchRunners(
  client: pg.Client,
  count: number,
  opts: { prefix: string; bibSql: string; teamSql?: string },
): Promise<BenchEvent> {
  const [cat] = (
    await client.query(
      'select c.id, d.event_id from event_categories c join event_days d on d.id = c.day_id order by c.id limit 1',
    )
  ).rows as Array<{ id: number; event_id: number }>;
  const tag = opts.prefix.toLowerCase().replace(/[^a-z]/g, '');
  await client.query(
    `insert into charges (txid, method, provider, purpose, amount_cents, status, draft, expires_at, paid_at, created_at)
     select $2 || lpad(g::text, 20, '0'), 'pix', 'simulado', 'registration', 9990, 'CONCLUIDA', '{}'::jsonb,
            now(), now(), now()
     from generate_series(1, $1::int) g`,
    [count, tag],
  );
  await client.query(
    `with made as (
       insert into registrations (event_id, charge_id, nome_completo, cpf, data_nascimento, genero, endereco,
                                  numero_contato, email, street, zip_code, state, city, neighborhood, total_cents,
                                  tamanho_camisa, equipe)
       select $1::int, ch.id, $3 || ' ' || ch.id, lpad((80000000000 + ch.id)::text, 11, '0'),
              '1985-03-10', case when ch.id % 2 = 0 then 'Feminino' else 'Masculino' end, 'Av. Beira Mar, 100',
              '85999999999', $4 || ch.id || '@example.com', 'Av. Beira Mar, 100', '60165121', 'CE', 'Fortaleza',
              'Meireles', 9990, 'M', ${opts.teamSql ?? 'null'}
       from charges ch where ch.txid like $4 || '%'
       returning id, cpf
     )
     insert into registration_categories (registration_id, category_id, cpf, price_cents, numero_peito)
     select made.id, $2::int, made.cpf, 9990, ${opts.bibSql} from made`,
    [cat!.event_id, cat!.id, opts.prefix, tag],
  );
  return { eventId: cat!.event_id, categoryId: cat!.id };
}
