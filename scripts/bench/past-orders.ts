import pg from 'pg';

/**
 * Fills a shop's database with `count` past sales, as a year of trading leaves them: a paid charge and
 * its payment event per sale, an order with two items and its status history, and for every fourth
 * sale a paid registration (its own charge, one category) for one of the shop's events. Written
 * straight in SQL (generate_series) so 200,000 orders load in about a minute; then ANALYZE, so the
 * planner sees the tables as they now are.
 */
export async function loadPastOrders(databaseUrl: string, count: number): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('begin');
    await client.query(
      `insert into charges (txid, method, provider, purpose, amount_cents, status, draft, expires_at, paid_at, created_at)
       select 'histpedido' || lpad(g::text, 20, '0'), 'pix', 'simulado', 'order', 18980, 'CONCLUIDA', '{}'::jsonb,
              now() - (g % 365) * interval '1 day', now() - (g % 365) * interval '1 day',
              now() - (g % 365) * interval '1 day' - interval '5 minutes'
       from generate_series(1, $1::int) g`,
      [count],
    );
    await client.query(
      `insert into payment_events (charge_id, source, kind, created_at)
       select id, 'webhook', 'CONCLUIDA', paid_at from charges where txid like 'histpedido%'`,
    );
    await client.query(
      `insert into orders (charge_id, status, payment_method, shipping_service, subtotal_cents, shipping_cents,
                           total_cents, order_date)
       select id, 'entregue', 'pix', 'PAC', 17980, 1000, 18980, paid_at from charges where txid like 'histpedido%'`,
    );
    // Two lines per order, from the shop's stock in turn.
    await client.query(
      `with lines as (
         select s.product_id, s.color_id, s.size_id, p.name as product_name, c.name as color_name,
                z.name as size_name, row_number() over (order by s.product_id, s.color_id, s.size_id) - 1 as n
         from stock s join products p on p.id = s.product_id join colors c on c.id = s.color_id
         join sizes z on z.id = s.size_id
       ), total as (select count(*) as k from lines)
       insert into order_items (order_id, product_id, product_name, product_price_cents, product_image,
                                color_id, color_name, size_id, size_name, quantity)
       select o.id, l.product_id, l.product_name, 8990, '', l.color_id, l.color_name, l.size_id, l.size_name, 1
       from orders o
       cross join generate_series(0, 1) line
       join total on true
       join lines l on l.n = (o.id + line) % total.k
       where o.total_cents = 18980`,
    );
    await client.query(
      `insert into order_status_changes (order_id, status, at)
       select id, status, order_date + interval '3 days' from orders where total_cents = 18980`,
    );
    await client.query(
      `insert into charges (txid, method, provider, purpose, amount_cents, status, draft, expires_at, paid_at, created_at)
       select 'histinscricao' || lpad(g::text, 20, '0'), 'pix', 'simulado', 'registration', 9990, 'CONCLUIDA',
              '{}'::jsonb, now() - (g % 365) * interval '1 day', now() - (g % 365) * interval '1 day',
              now() - (g % 365) * interval '1 day'
       from generate_series(1, $1::int / 4) g`,
      [count],
    );
    // Each registration takes a category of the shop's events in turn, under a CPF of its own.
    await client.query(
      `with cats as (
         select c.id as category_id, d.event_id, row_number() over (order by c.id) - 1 as n
         from event_categories c join event_days d on d.id = c.day_id
       ), total as (select count(*) as k from cats),
       made as (
         insert into registrations (event_id, charge_id, nome_completo, cpf, data_nascimento, genero, endereco,
                                    numero_contato, email, street, zip_code, state, city, neighborhood, total_cents,
                                    created_at)
         select cats.event_id, ch.id, 'Corredor Histórico ' || ch.id, lpad((90000000000 + ch.id)::text, 11, '0'),
                '1985-03-10', 'Feminino', 'Av. Beira Mar, 100', '85999999999', 'historico' || ch.id || '@example.com',
                'Av. Beira Mar, 100', '60165121', 'CE', 'Fortaleza', 'Meireles', 9990, ch.paid_at
         from charges ch
         join total on true
         join cats on cats.n = ch.id % total.k
         where ch.txid like 'histinscricao%'
         returning id, charge_id, cpf
       )
       insert into registration_categories (registration_id, category_id, cpf, price_cents)
       select made.id, cats.category_id, made.cpf, 9990
       from made
       join total on true
       join cats on cats.n = made.charge_id % total.k`,
    );
    await client.query('commit');
    await client.query('analyze');
  } catch (error) {
    await client.query('rollback');
    throw error;
  } finally {
    await client.end();
  }
}
