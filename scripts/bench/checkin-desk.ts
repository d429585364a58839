/**
 * The bench's `desk` part (docs/decisions/0063), on PostgreSQL: an event with `BENCH_DESK_RUNNERS`
 * (20,000) registrations, half with bibs, is written straight in SQL; then the kit desk's snapshot is
 * downloaded (as the desk does: request, JSON, its index) and a second time with its ETag (304), and
 * `BENCH_DESK_SCANS` (20,000) scans are decided offline by the desk's own function, in a loop.
 */
import { decideOfflineScan, indexSnapshot } from '@passada/core/checkin-offline';
import type { DeskSnapshot } from '@passada/core/contracts/painel-checkin-desk';
import pg from 'pg';
import { mac128 } from '../../apps/api/src/modules/registrations/signed-token.ts';
import { deskOnPhone } from './desk-phone.ts';
import type { Shop } from './shop.ts';

const RUNNERS = Number(process.env.BENCH_DESK_RUNNERS ?? 20_000);
const SCANS = Number(process.env.BENCH_DESK_SCANS ?? 20_000);

export interface DeskFigures {
  runners: number;
  snapshotMs: number;
  snapshotKB: number;
  notModifiedMs: number;
  /** The desk page opened and its copy of every runner stored on a throttled phone profile. */
  phoneMs: number;
  scans: number;
  scansPerSecond: number;
  /** Every real code taken, every forged one refused. */
  correct: boolean;
}

/** A new event of `RUNNERS` paid registrations on the shop's demo event's first category; answers its id. */
async function loadDeskEvent(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('begin');
    const [cat] = (
      await client.query(
        `select c.id, d.event_id from event_categories c join event_days d on d.id = c.day_id order by c.id limit 1`,
      )
    ).rows as Array<{ id: number; event_id: number }>;
    await client.query(
      `insert into charges (txid, method, provider, purpose, amount_cents, status, draft, expires_at, paid_at, created_at)
       select 'bancada' || lpad(g::text, 20, '0'), 'pix', 'simulado', 'registration', 9990, 'CONCLUIDA', '{}'::jsonb,
              now(), now(), now()
       from generate_series(1, $1::int) g`,
      [RUNNERS],
    );
    await client.query(
      `with made as (
         insert into registrations (event_id, charge_id, nome_completo, cpf, data_nascimento, genero, endereco,
                                    numero_contato, email, street, zip_code, state, city, neighborhood, total_cents,
                                    tamanho_camisa, equipe)
         select $1::int, ch.id, 'Corredora da Bancada ' || ch.id, lpad((80000000000 + ch.id)::text, 11, '0'),
                '1985-03-10', 'Feminino', 'Av. Beira Mar, 100', '85999999999', 'bancada' || ch.id || '@example.com',
                'Av. Beira Mar, 100', '60165121', 'CE', 'Fortaleza', 'Meireles', 9990, 'M',
                case when ch.id % 3 = 0 then 'Equipe Bancada' end
         from charges ch where ch.txid like 'bancada%'
         returning id, cpf
       )
       insert into registration_categories (registration_id, category_id, cpf, price_cents, numero_peito)
       select made.id, $2::int, made.cpf, 9990, case when made.id % 2 = 0 then made.id end from made`,
      [cat!.event_id, cat!.id],
    );
    await client.query('commit');
    await client.query('analyze');
    return cat!.event_id;
  } catch (error) {
    await client.query('rollback');
    throw error;
  } finally {
    await client.end();
  }
}

export async function deskFigures(shop: Shop, secret: string): Promise<DeskFigures> {
  const eventId = await loadDeskEvent(shop.databaseUrl!);
  const login = await fetch(`${shop.baseURL}/api/painel/auth/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@passada.com.br', password: 'painel-demo-2026' }),
  });
  const token = ((await login.json()) as { token: string }).token;
  const url = `${shop.baseURL}/api/painel/checkin/offline/?evento=${eventId}`;
  const headers = { authorization: `Token ${token}` };

  let started = performance.now();
  const res = await fetch(url, { headers });
  const text = await res.text();
  const snapshot = JSON.parse(text) as DeskSnapshot;
  const index = indexSnapshot(snapshot);
  const snapshotMs = performance.now() - started;
  started = performance.now();
  const again = await fetch(url, { headers: { ...headers, 'if-none-match': res.headers.get('etag') ?? '' } });
  const notModifiedMs = performance.now() - started;

  // The codes the runners hold, signed as the server signs them; every other one forged.
  const client = new pg.Client({ connectionString: shop.databaseUrl! });
  await client.connect();
  const rows = (
    await client.query('select id, checkin_nonce from registrations where event_id = $1 order by id', [
      eventId,
    ])
  ).rows as Array<{ id: number; checkin_nonce: string }>;
  await client.end();
  const codes = rows.map((r) => {
    const mac = mac128(secret, `${r.id}.${eventId}.${r.checkin_nonce}`).toString('base64url');
    return `PASSADA-KIT:${r.id}.${eventId}.${r.checkin_nonce}.${mac}`;
  });
  let correct = again.status === 304;
  started = performance.now();
  for (let n = 0; n < SCANS; n++) {
    const code = codes[n % codes.length]!;
    const forged = n % 2 === 1;
    const decision = await decideOfflineScan(eventId, index, forged ? `${code.slice(0, -1)}x` : code);
    if ((decision.kind === 'recusado') !== forged && decision.kind !== 'retirado') correct = false;
  }
  const scansPerSecond = SCANS / ((performance.now() - started) / 1000);
  const phone = await deskOnPhone(shop.baseURL, eventId, token, snapshot.inscricoes.length);
  return {
    phoneMs: phone.ms,
    runners: snapshot.inscricoes.length,
    snapshotMs,
    snapshotKB: Buffer.byteLength(text) / 1024,
    notModifiedMs,
    scans: SCANS,
    scansPerSecond,
    correct,
  };
}
