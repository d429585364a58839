/**
 * A model-based test of every change to a sale (issue 38, "Proof"): random sequences of sales and
 * after-sale operations by several buyers and runners on a small event (two categories of 2–3 places,
 * a waitlist on both) and a small catalogue (2 products × 2 sizes, 1–3 units each), sent through the
 * real HTTP layer and replayed beside a plain reference model (arrays and counts). After every step the
 * rules that govern a sale are checked against the database (read only):
 *
 * - places sold ≤ capacity per category, and the model's count of standing registrations matches;
 * - held waitlist offers are honoured: what is left in a category covers the offers out, and the
 *   holder of an offer who takes it gets the place;
 * - one standing registration per CPF per category, on every path;
 * - on a run with an opening (two registrations per buyer), no account holds more;
 * - on a run with an opening (one registration per CPF), no CPF holds more in the event, and a sale or a
 *   transfer to a CPF that holds one, or that a sale or a transfer is being paid for by another account,
 *   is refused (a transfer left being paid, then a sale to its new runner, is tried early in every run);
 * - on a run whose opening is a lottery already drawn, every standing registration's CPF was drawn in
 *   its category, whatever path put it there (a sale, a waitlist offer, a transfer, a change of distance),
 *   and a transfer to a CPF not drawn in the registration's category is refused at its request;
 * - the 10 km's special price (a students' half price capped at one place, docs/decisions/0068) is never
 *   on more places than its cap, a sale under it past the cap is refused, and it leaves a registration
 *   that is transferred or changes distance (the model's count of its standing registrations matches);
 * - the run's race coupon (40 %, two uses) is never on more standing registrations than its uses, and
 *   what comes back of a registration it priced stays within what was paid (the refund check below);
 * - every refund ≤ what was paid on that charge (sum of charge_refunds per charge);
 * - stock and the stock ledger agree, and match the model;
 * - every shipped unit has an authorised NF-e (an order sent, an exchange's replacement sent);
 * - every paid charge ends in a sale or a refund.
 *
 * Used by sale-model.test.ts (PGlite, one shop) and sale-model.pg.test.ts (PostgreSQL, two shops on one
 * database taking turns and racing).
 */
import { randomUUID } from 'node:crypto';
import { addDays, dateInTimeZone, STORE_TIME_ZONE } from '@passada/core/calendar';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { expect, vi } from 'vitest';
import type { Db } from '../../db/client.ts';
import { readOutbox } from '../factories/accounts.ts';
import { type MadeProduct, makeProduct } from '../factories/catalog.ts';
import { createCoupon } from '../factories/coupons.ts';
import { type MadeEvent, makeEvent } from '../factories/events.ts';
import { BUYER_CPF, saveFiscalSettings, saveProductFiscal } from '../factories/fiscal.ts';
import { draftTotalCents, makeQuickBuyer, orderDraft } from '../factories/orders.ts';
import { createStaffAndLogin, type TestStaff } from '../factories/painel.ts';
import { cardToken, removalRacingAPayment, simulatePixPaid } from '../factories/payments.ts';
import { cpfFrom, OTHER_CPF, participant } from '../factories/registrations.ts';

export const APPROVED_CARD = '4111111111111111';
const REFUSED_CARD = '4000000000000002';

/** Settings of the shops under test: limits out of the way, a one-minute Pix, long sessions. */
export const MODEL_ENV: Record<string, string> = {
  LOG_LEVEL: 'silent',
  PIX_EXPIRATION_SECONDS: '60',
  PAYMENTS_MAX_OPEN_CHARGES: '50',
  PAYMENTS_RATE_LIMIT_PER_ACCOUNT: '100000',
  PAYMENTS_RATE_LIMIT_PER_IP: '100000',
  COUPONS_RATE_LIMIT_PER_ACCOUNT: '100000',
  COUPONS_RATE_LIMIT_PER_IP: '100000',
  WAITLIST_JOIN_RATE_LIMIT_PER_IP: '100000',
  PAINEL_SESSION_TTL_HOURS: '168',
};

/**
 * How many runs and steps: bounded for `npm test`; MODEL_RUNS / MODEL_STEPS / MODEL_SEED for longer or
 * replayed runs. `npm test` runs one fixed seed, so a red run is a change's doing and not the draw's;
 * MODEL_SEED=random explores new sequences (each run prints its seed and the replay command).
 */
const DEFAULT_MODEL_SEED = 11;

export function modelSettings(defaults: { runs: number; steps: number }) {
  const num = (v: string | undefined, d: number) => (v && /^\d+$/.test(v) ? Number(v) : d);
  const seed =
    process.env.MODEL_SEED === 'random'
      ? Date.now() % 2 ** 31
      : num(process.env.MODEL_SEED, DEFAULT_MODEL_SEED);
  const path = process.env.MODEL_PATH || undefined;
  return {
    runs: num(process.env.MODEL_RUNS, defaults.runs),
    steps: num(process.env.MODEL_STEPS, defaults.steps),
    seed,
    path,
    /** The default seed and path, as `npm test` runs them. */
    fixed: seed === DEFAULT_MODEL_SEED && !path,
  };
}

export type ModelSettings = ReturnType<typeof modelSettings>;

/**
 * Checks the property within a time budget that never cuts a run short in the middle. fast-check's
 * `interruptAfterTimeLimit` abandons the run under way when the budget ends (its steps go on against the
 * shop in the background), and reports a failure when that was the first run: on a loaded machine the
 * first run alone has taken longer than the budget. Here the first run always completes, whatever it
 * takes; the later ones (the same generated values, from the second on) run within what is left, and
 * one cut short by the budget is no failure. A replay (`MODEL_PATH`) runs as asked, with no budget.
 */
export async function checkWithinBudget<Ts extends [unknown, ...unknown[]]>(
  property: fc.IAsyncProperty<Ts>,
  settings: ModelSettings,
  budgetMs: number,
) {
  const started = Date.now();
  const first = await fc.check(property, {
    seed: settings.seed,
    ...(settings.path ? { path: settings.path } : {}),
    numRuns: settings.path ? settings.runs : 1,
  });
  const left = budgetMs - (Date.now() - started);
  if (first.failed || settings.path || settings.runs <= 1)
    return { details: first, runs: first.numRuns, interrupted: false };
  if (left <= 0) return { details: first, runs: 1, interrupted: true };
  const rest = await fc.check(property, {
    seed: settings.seed,
    path: '1',
    numRuns: settings.runs - 1,
    interruptAfterTimeLimit: left,
  });
  // Cut short by the budget before any failure: the runs done passed.
  const cut = rest.interrupted && rest.counterexamplePath === null;
  return {
    details: cut ? { ...rest, failed: false } : rest,
    runs: 1 + (cut ? Math.max(0, rest.numRuns) : rest.numRuns),
    interrupted: cut,
  };
}

// ---------------------------------------------------------------------------------------------------
// Operations (plain data, generated by fast-check, printed when shrunk)

type Pay = 'pix' | 'pix_open' | 'card' | 'card_refused';

export type Op =
  | {
      op: 'register';
      buyer: number;
      runner: number;
      cat: number;
      pay: Pay;
      size: number;
      coupon: boolean;
      /** Under the 10 km's special price (the tour's steps only: the random draws stay as they were). */
      rule?: boolean;
    }
  | { op: 'cancel'; reg: number }
  | { op: 'staffCancel'; reg: number }
  | { op: 'transfer'; reg: number; runner: number; payer: number; pay: 'card' | 'pix_open' }
  | { op: 'transferProbe'; buyer: number; payer: number; other: number; pick: number }
  | { op: 'tour'; pick: number }
  | { op: 'changeDistance'; reg: number; pay: 'card' | 'pix' }
  | { op: 'changeShirt'; reg: number; size: number }
  | { op: 'changeList'; reg: number; size: number; pay: 'card' | 'pix' }
  | { op: 'joinWaitlist'; runner: number; cat: number }
  | { op: 'takeOffer'; offer: number; buyer: number }
  | { op: 'buy'; buyer: number; product: number; size: number; qty: number; pay: Pay }
  | { op: 'expirePix' }
  | { op: 'payLate'; charge: number }
  | { op: 'withdraw'; order: number; whole: boolean }
  | { op: 'swap'; order: number }
  | { op: 'add'; order: number; size: number; qty: number; pay: Pay }
  | { op: 'ship'; order: number }
  | { op: 'return'; order: number }
  | { op: 'exchange'; order: number }
  | { op: 'staffRefund'; order: number; share: number };

const BUYERS = 3;
/** An opening's registrations per buyer: two, so that accounts reach it. */
const OPENING_PER_BUYER = 2;
/** Places of the 10 km's special price: one, so that the tour's second try finds it taken. */
const RULE_CAP = 1;
/** Uses of the run's race coupon: few, so that sales run it out. */
const COUPON_USES = 2;
const RUNNERS = 6;

type OpKind = Exclude<Op['op'], 'transferProbe' | 'tour'>;

/** Every operation kind a run draws from, with its weight among the random steps. */
function opKinds(): Array<{ weight: number; arbitrary: fc.Arbitrary<Op> }> {
  const pay = fc.constantFrom<Pay>('pix', 'pix_open', 'card', 'card', 'card_refused');
  const ix = fc.nat({ max: 7 });
  return [
    {
      weight: 5,
      arbitrary: fc.record({
        op: fc.constant('register' as const),
        buyer: fc.nat({ max: BUYERS - 1 }),
        runner: fc.nat({ max: RUNNERS - 1 }),
        cat: fc.nat({ max: 1 }),
        pay,
        size: fc.nat({ max: 1 }),
        coupon: fc.boolean(),
      }),
    },
    { weight: 2, arbitrary: fc.record({ op: fc.constant('cancel' as const), reg: ix }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('staffCancel' as const), reg: ix }) },
    {
      weight: 2,
      arbitrary: fc.record({
        op: fc.constant('transfer' as const),
        reg: ix,
        runner: fc.nat({ max: RUNNERS - 1 }),
        payer: fc.nat({ max: BUYERS - 1 }),
        pay: fc.constantFrom<'card' | 'pix_open'>('card', 'card', 'pix_open'),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        op: fc.constant('changeDistance' as const),
        reg: ix,
        pay: fc.constantFrom<'card' | 'pix'>('card', 'pix'),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({ op: fc.constant('changeShirt' as const), reg: ix, size: fc.nat({ max: 1 }) }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        op: fc.constant('changeList' as const),
        reg: ix,
        size: fc.nat({ max: 1 }),
        pay: fc.constantFrom<'card' | 'pix'>('card', 'pix'),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        op: fc.constant('joinWaitlist' as const),
        runner: fc.nat({ max: RUNNERS - 1 }),
        cat: fc.nat({ max: 1 }),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        op: fc.constant('takeOffer' as const),
        offer: ix,
        buyer: fc.nat({ max: BUYERS - 1 }),
      }),
    },
    {
      weight: 4,
      arbitrary: fc.record({
        op: fc.constant('buy' as const),
        buyer: fc.nat({ max: BUYERS - 1 }),
        product: fc.nat({ max: 1 }),
        size: fc.nat({ max: 1 }),
        qty: fc.integer({ min: 1, max: 2 }),
        pay,
      }),
    },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('expirePix' as const) }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('payLate' as const), charge: ix }) },
    {
      weight: 2,
      arbitrary: fc.record({ op: fc.constant('withdraw' as const), order: ix, whole: fc.boolean() }),
    },
    { weight: 2, arbitrary: fc.record({ op: fc.constant('swap' as const), order: ix }) },
    {
      weight: 2,
      arbitrary: fc.record({
        op: fc.constant('add' as const),
        order: ix,
        size: fc.nat({ max: 1 }),
        qty: fc.integer({ min: 1, max: 2 }),
        pay,
      }),
    },
    { weight: 3, arbitrary: fc.record({ op: fc.constant('ship' as const), order: ix }) },
    { weight: 2, arbitrary: fc.record({ op: fc.constant('return' as const), order: ix }) },
    { weight: 3, arbitrary: fc.record({ op: fc.constant('exchange' as const), order: ix }) },
    {
      weight: 1,
      arbitrary: fc.record({
        op: fc.constant('staffRefund' as const),
        order: ix,
        share: fc.constantFrom(0.25, 0.5, 1),
      }),
    },
  ];
}

function opArbitrary(): fc.Arbitrary<Op> {
  return fc.oneof(...opKinds());
}

/**
 * The kinds a run's tour (`tour`) takes one step of each, in the order a sale's life meets them: changes
 * before the cancellations that end them, a full category before its waitlist, goods shipped before
 * their return, a Pix left open before its expiry.
 */
const TOUR: readonly OpKind[] = [
  'register',
  'buy',
  'changeShirt',
  'changeList',
  'changeDistance',
  'transfer',
  'joinWaitlist',
  'cancel',
  'takeOffer',
  'staffCancel',
  'withdraw',
  'swap',
  'add',
  'ship',
  'exchange',
  'return',
  'staffRefund',
  'expirePix',
  'payLate',
];

/** The operation kinds none of whose steps got done in any run: printed after the runs (an empty list is the aim). */
export function kindsNotDone(done: Record<string, number>): OpKind[] {
  return TOUR.filter((kind) => !Object.keys(done).some((k) => k.startsWith(kind)));
}

/**
 * A run's operations: a few sales first (so the after-sale operations find something to act on), then
 * a transfer probe (`transferProbe`: a place handed over with its payment left open and a sale to its
 * new runner), then the tour (`tour`: one step of every kind, its targets chosen from the model so that
 * each can go through), then anything, sales included.
 */
export function opsArbitrary(steps: number): fc.Arbitrary<Op[]> {
  const sale = opArbitrary().filter((o) => o.op === 'register' || o.op === 'buy');
  const probe = fc.record({
    op: fc.constant('transferProbe' as const),
    buyer: fc.nat({ max: BUYERS - 1 }),
    payer: fc.nat({ max: BUYERS - 1 }),
    other: fc.nat({ max: BUYERS - 2 }),
    pick: fc.nat({ max: RUNNERS - 1 }),
  });
  return fc
    .tuple(
      fc.array(sale, { minLength: 3, maxLength: 5 }),
      probe,
      fc.record({ op: fc.constant('tour' as const), pick: fc.nat({ max: 5 }) }),
      fc.array(opArbitrary(), { minLength: Math.ceil(steps / 2), maxLength: steps }),
    )
    .map(([first, probed, tour, rest]) => [...first, probed, tour, ...rest]);
}

/** The small event's shape: places per category (2–3 each). */
export const worldArbitrary = fc.record({
  places: fc.tuple(fc.integer({ min: 2, max: 3 }), fc.integer({ min: 2, max: 3 })),
  units: fc.tuple(
    fc.integer({ min: 1, max: 3 }),
    fc.integer({ min: 1, max: 3 }),
    fc.integer({ min: 1, max: 3 }),
    fc.integer({ min: 1, max: 3 }),
  ),
  /**
   * How the event opens, with OPENING_PER_BUYER registrations per buyer: a waiting room, a lottery
   * already drawn, or no opening (the fixed seed's two runs draw the first two).
   */
  opening: fc.constantFrom<'fila' | 'sorteio' | null>('fila', 'sorteio', null),
});
export type WorldShape = typeof worldArbitrary extends fc.Arbitrary<infer T> ? T : never;

// ---------------------------------------------------------------------------------------------------
// The reference model

interface ModelRegistration {
  id: number;
  cat: number;
  cpf: string;
  /** The account that may change it (the buyer, then the transfer's payer). */
  owner: number;
  cancelled: boolean;
  /** Sold under the special price, and still under it (a transfer or a change of distance ends it). */
  rule?: boolean;
}

interface ModelCharge {
  txid: string;
  buyer: number;
  kind: 'registration' | 'order' | 'change' | 'transfer';
  status: 'open' | 'paid' | 'ended';
  /** What it holds while open. */
  cat?: number;
  cpf?: string;
  combo?: number;
  qty?: number;
  /** A dearer distance's charge: the registration and the category it moves to; a transfer's: the registration. */
  reg?: number;
  /** An addition's charge (docs/decisions/0087): the order whose parcel it joins. */
  joins?: number;
}

interface ModelOrder {
  id: number;
  buyer: number;
  combo: number;
  qty: number;
  /** Units still with the order (not withdrawn, not returned). */
  left: number;
  itemId: number;
  status: 'pago' | 'enviado' | 'entregue' | 'cancelado';
  /** A return or exchange already asked: one per order in this model. */
  afterSale: boolean;
  /** An addition (docs/decisions/0087): the order whose parcel it travels in, and whose steps it takes. */
  joins?: number;
}

export class Model {
  regs: ModelRegistration[] = [];
  charges: ModelCharge[] = [];
  orders: ModelOrder[] = [];
  /** Units in stock per combo (product × size): what the shop should show. */
  stock: number[];
  constructor(
    public capacity: [number, number],
    public initialStock: number[],
    /** The opening's registrations per buyer (0: no opening). */
    public perBuyer = 0,
    /** A lottery's result: the category each drawn CPF won (null: no lottery). */
    public drawn: Map<string, number> | null = null,
  ) {
    this.stock = [...initialStock];
  }
  /** Whether the lottery lets this CPF buy in this category (always, without a lottery). */
  drawnIn(cpf: string, cat: number) {
    return this.drawn === null || this.drawn.get(cpf) === cat;
  }
  /** Whether the opening lets this buyer hold one registration more (standing ones counted). */
  buyerMay(buyer: number) {
    return (
      this.perBuyer === 0 || this.regs.filter((r) => !r.cancelled && r.owner === buyer).length < this.perBuyer
    );
  }
  standing(cat: number) {
    return this.regs.filter((r) => !r.cancelled && r.cat === cat).length;
  }
  /** Standing registrations still under the special price. */
  underRule() {
    return this.regs.filter((r) => !r.cancelled && r.rule).length;
  }
  cpfStanding(cpf: string) {
    return this.regs.some((r) => !r.cancelled && r.cpf === cpf);
  }
  openHolds(cat: number) {
    return this.charges.filter(
      (c) =>
        c.status === 'open' &&
        ((c.kind === 'registration' && c.cat === cat) || (c.kind === 'change' && c.cat === cat)),
    ).length;
  }
  /** Whether an open charge is paying for this CPF: a sale's place, or a transfer to it (`except` that account's). */
  cpfHeld(cpf: string, except?: number) {
    return this.charges.some(
      (c) =>
        c.status === 'open' &&
        (c.kind === 'registration' || c.kind === 'transfer') &&
        c.cpf === cpf &&
        c.buyer !== except,
    );
  }
  /** Places a new registration may take: capacity less standing, less open holds. */
  free(cat: number) {
    return this.capacity[cat]! - this.standing(cat) - this.openHolds(cat);
  }
}

// ---------------------------------------------------------------------------------------------------
// The world: one event and two products per run, fresh buyers, staff of the file

export interface Shop {
  app: FastifyInstance;
  dataDir: string;
}

export interface FileContext {
  /** The shops taking the steps (one on PGlite; two processes' apps on PostgreSQL). */
  shops: Shop[];
  /** Read-only handle for the checks. */
  db: Db;
  admin: TestStaff;
  /** The shared clock of the shops, moved forward only. */
  clock: { now: Date };
  /** First CPF number of this file (files never share CPFs). */
  cpfBase: number;
  runCount: number;
  /** How many times each operation went through (printed at the end, so a run shows what it exercised). */
  done: Record<string, number>;
}

export async function prepareFile(
  ctx: Omit<FileContext, 'admin' | 'runCount' | 'done'>,
): Promise<FileContext> {
  const admin = await createStaffAndLogin(ctx.shops[0]!.app, 'admin');
  await saveFiscalSettings(ctx.shops[0]!.app, admin.headers);
  return { ...ctx, admin, runCount: 0, done: {} };
}

interface World {
  ctx: FileContext;
  event: MadeEvent;
  cats: [number, number];
  kit: [number, number];
  products: MadeProduct[];
  /** combo i = product ⌊i/2⌋, stock entry i % 2. */
  combos: Array<{ product: MadeProduct; index: number; colorId: number; sizeId: number }>;
  buyers: Array<{ id: number; headers: Record<string, string>; addressId: number; zipCode: string }>;
  runners: Array<{ nome_completo: string; cpf: string; email: string }>;
  /** The run's race coupon: 40 % off this event, at most COUPON_USES uses. */
  coupon: string;
  /** The 10 km's special price: a students' half price, no proof asked, RULE_CAP places. */
  rule: number;
  model: Model;
  log: string[];
  /** Which shop takes the next step. */
  turn: number;
  /** Steps racing on two shops: what one step expects may be taken by the other, so only the rules are checked. */
  racing: boolean;
}

async function makeWorld(ctx: FileContext, shape: WorldShape): Promise<World> {
  const app = ctx.shops[0]!.app;
  ctx.runCount += 1;
  const run = ctx.runCount;
  const today = dateInTimeZone(ctx.clock.now, STORE_TIME_ZONE);
  const event = await makeEvent(app.db, {
    name: `Corrida do Modelo ${run}`,
    today,
    startDate: addDays(today, 40),
    registrationDeadline: addDays(today, 38),
    days: [
      [
        { name: '5 km', priceCents: 5000, placesLeft: shape.places[0] },
        { name: '10 km', priceCents: 8000, placesLeft: shape.places[1] },
      ],
    ],
    kitSizes: [
      { size: 'M', left: 20 },
      { size: 'G', left: 1 },
    ],
  });
  const cats: [number, number] = [event.days[0]!.categories[0]!.id, event.days[0]!.categories[1]!.id];
  // The organiser's rules: a waitlist on both categories, a transfer fee, a cheaper distance refunded.
  const rulesUrl = `/api/painel/events/${event.id}/pos-venda/`;
  const { texto: _t, ...rules } = (
    await app.inject({ method: 'GET', url: rulesUrl, headers: ctx.admin.headers })
  ).json();
  const saved = await app.inject({
    method: 'PUT',
    url: rulesUrl,
    headers: ctx.admin.headers,
    payload: {
      ...rules,
      lista_espera_categorias: cats,
      transferencia_taxa: 10,
      troca_distancia_taxa: 0,
      troca_distancia_devolve_diferenca: true,
    },
  });
  expect(saved.statusCode, saved.body).toBe(200);
  const products: MadeProduct[] = [];
  for (const p of [0, 1]) {
    const product = await makeProduct(app.db, {
      name: `Camiseta do Modelo ${run}-${p}`,
      priceCents: p === 0 ? 6000 : 9000,
      stock: [
        { color: 'Preto', size: 'M', quantity: shape.units[p * 2]! },
        { color: 'Preto', size: 'G', quantity: shape.units[p * 2 + 1]! },
      ],
    });
    await saveProductFiscal(app, ctx.admin.headers, product.id);
    products.push(product);
  }
  const combos = products.flatMap((product) =>
    product.stock.map((s, index) => ({ product, index, colorId: s.colorId, sizeId: s.sizeId })),
  );
  const ruleMade = await app.inject({
    method: 'POST',
    url: `/api/painel/events/${event.id}/regras-preco/`,
    headers: ctx.admin.headers,
    payload: {
      categoria: cats[1],
      publico: 'estudante',
      nome: 'Estudante do Modelo',
      desconto: 'meia',
      limite_vagas: RULE_CAP,
      exige_comprovante: false,
    },
  });
  expect(ruleMade.statusCode, ruleMade.body).toBe(201);
  const rule = (ruleMade.json() as Array<{ id: number }>)[0]!.id;
  const coupon = `MODELO${ctx.cpfBase}R${run}`;
  await createCoupon(app, ctx.admin.headers, {
    codigo: coupon,
    tipo: 'percentual',
    valor: 40,
    escopo: 'corridas',
    eventos: [event.id],
    usos_max: COUPON_USES,
  });
  const buyers = [];
  for (let i = 0; i < BUYERS; i++) buyers.push(await makeQuickBuyer(app));
  const runners = Array.from({ length: RUNNERS }, (_, i) => ({
    nome_completo: `Corredora ${String.fromCharCode(65 + i)} Modelo`,
    cpf: cpfFrom(ctx.cpfBase + run * 10 + i),
    email: `corredora.${ctx.cpfBase}.${run}.${i}@example.com`,
  }));
  const perBuyer = shape.opening ? OPENING_PER_BUYER : 0;
  let drawn: Map<string, number> | null = null;
  if (shape.opening === 'sorteio') drawn = await drawLottery(ctx, event, cats, buyers, runners);
  else if (shape.opening === 'fila') {
    // A waiting room opening a minute from now, every buyer in its pre-queue, all admitted at once.
    const saved = await app.inject({
      method: 'PUT',
      url: `/api/painel/events/${event.id}/abertura/`,
      headers: ctx.admin.headers,
      payload: {
        modo: 'fila',
        abre_em: new Date(ctx.clock.now.getTime() + 60_000).toISOString(),
        pre_fila_minutos: 30,
        admitidos_por_minuto: 100,
        minutos_da_vez: 240,
        inscricoes_por_cpf: 1,
        inscricoes_por_comprador: perBuyer,
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    for (const shop of ctx.shops) await shop.app.opening.refresh();
    for (const b of buyers) {
      const joined = await app.inject({
        method: 'POST',
        url: `/api/events/${event.id}/fila/`,
        headers: b.headers,
      });
      expect(joined.statusCode, joined.body).toBe(200);
    }
    ctx.clock.now = new Date(ctx.clock.now.getTime() + 2 * 60_000);
    for (const shop of ctx.shops) await shop.app.opening.refresh();
    ctx.done['world(fila)'] = (ctx.done['world(fila)'] ?? 0) + 1;
  }
  return {
    ctx,
    event,
    cats,
    kit: [event.kitSizes![0]!.id, event.kitSizes![1]!.id],
    products,
    combos,
    buyers,
    runners,
    coupon,
    rule,
    model: new Model(shape.places, [...shape.units], perBuyer, drawn),
    log: [],
    turn: 0,
    racing: false,
  };
}

/**
 * A lottery opening already drawn (docs/decisions/0051, 0056): every runner entered once (runner i by
 * buyer ⌊i/2⌋, in category i % 2, so each account enters its two), four of the six drawn, 48 hours to
 * pay. Only those four may buy, each in the category drawn; a transfer must go to a drawn CPF of the
 * same category and a change of distance leaves it. Answers the category each drawn CPF won.
 */
async function drawLottery(
  ctx: FileContext,
  event: MadeEvent,
  cats: [number, number],
  buyers: World['buyers'],
  runners: World['runners'],
): Promise<Map<string, number>> {
  const app = ctx.shops[0]!.app;
  const start = ctx.clock.now.getTime();
  const at = (minutes: number) => new Date(start + minutes * 60_000).toISOString();
  const saved = await app.inject({
    method: 'PUT',
    url: `/api/painel/events/${event.id}/abertura/`,
    headers: ctx.admin.headers,
    payload: {
      modo: 'sorteio',
      abre_em: at(1),
      pre_fila_minutos: 0,
      admitidos_por_minuto: null,
      minutos_da_vez: 15,
      inscricoes_por_cpf: 1,
      inscricoes_por_comprador: OPENING_PER_BUYER,
      sorteio: { inscricoes_de: at(1), inscricoes_ate: at(30), vagas: 4, horas_para_pagar: 48 },
    },
  });
  expect(saved.statusCode, saved.body).toBe(200);
  ctx.clock.now = new Date(start + 2 * 60_000);
  for (const shop of ctx.shops) await shop.app.opening.refresh();
  const staffPost = async (path: string) => {
    const res = await app.inject({
      method: 'POST',
      url: `/api/painel/events/${event.id}/sorteio/${path}/`,
      headers: ctx.admin.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  await staffPost('compromisso');
  for (const [i, runner] of runners.entries()) {
    const entered = await app.inject({
      method: 'POST',
      url: `/api/events/${event.id}/sorteio/`,
      headers: buyers[Math.floor(i / 2) % buyers.length]!.headers,
      payload: { ...runner, data_nascimento: '1990-05-10', categoria: cats[i % 2] },
    });
    expect(entered.statusCode, entered.body).toBe(201);
  }
  ctx.clock.now = new Date(start + 31 * 60_000);
  for (const shop of ctx.shops) await shop.app.opening.refresh();
  await staffPost('sortear');
  const won = await rows<{ cpf: string; category_id: number }>(
    ctx.db,
    sql`select cpf, category_id from lottery_entries where event_id = ${event.id} and won_in_draw is not null`,
  );
  expect(won.length, 'the draw picked its places').toBe(4);
  ctx.done['world(sorteio)'] = (ctx.done['world(sorteio)'] ?? 0) + 1;
  return new Map(won.map((e) => [e.cpf, cats.indexOf(e.category_id)]));
}

// ---------------------------------------------------------------------------------------------------
// Running a step

type Res = Awaited<ReturnType<FastifyInstance['inject']>>;

function shopOf(w: World): Shop {
  const shop = w.ctx.shops[w.turn % w.ctx.shops.length]!;
  w.turn += 1;
  return shop;
}

/** No answer of the shop is a 5xx: bad or late input is a 4xx in Portuguese. */
function no5xx(res: Res, what: string) {
  if (process.env.MODEL_DEBUG) console.info(`${what}: ${res.statusCode} ${res.body.slice(0, 300)}`);
  expect(res.statusCode, `${what}: ${res.statusCode} ${res.body}`).toBeLessThan(500);
}

async function cardPay(
  app: FastifyInstance,
  buyer: World['buyers'][number],
  number: string,
  totalCents: number,
  body: Record<string, unknown>,
) {
  return app.inject({
    method: 'POST',
    url: '/api/pagar-cartao/',
    headers: { ...buyer.headers, 'idempotency-key': randomUUID() },
    payload: {
      birth: '1985-07-30',
      payment_token: await cardToken(app, {
        number,
        holderName: 'Titular da Conta',
        holderDocument: OTHER_CPF,
      }),
      name: 'Titular da Conta',
      cpf: OTHER_CPF,
      email: `comprador.${buyer.id}@example.com`,
      total: totalCents / 100,
      installments: 1,
      ...body,
    },
  });
}

function pixPay(app: FastifyInstance, buyer: World['buyers'][number], totalCents: number, body: object) {
  return app.inject({
    method: 'POST',
    url: '/api/pagar-pix/',
    headers: buyer.headers,
    payload: { total: totalCents / 100, descricao: 'Modelo', ...body },
  });
}

/**
 * Pays `body` the way `pay` says: answers what the purchase created (`paid`: the answer of the confirmed
 * payment; `open`: the txid of a Pix left open), or the refusal.
 */
async function purchase(
  app: FastifyInstance,
  buyer: World['buyers'][number],
  pay: Pay,
  totalCents: number,
  body: Record<string, unknown>,
): Promise<{ paid?: Record<string, unknown>; open?: string; refused?: Res }> {
  if (pay === 'card' || pay === 'card_refused') {
    const res = await cardPay(app, buyer, pay === 'card' ? APPROVED_CARD : REFUSED_CARD, totalCents, body);
    no5xx(res, 'cartão');
    if (res.statusCode === 200) return { paid: res.json() };
    return { refused: res };
  }
  const created = await pixPay(app, buyer, totalCents, body);
  no5xx(created, 'pix');
  if (created.statusCode !== 201) return { refused: created };
  const txid = created.json().txid as string;
  if (pay === 'pix_open') return { open: txid };
  const paid = await simulatePixPaid(app, txid);
  no5xx(paid, 'pix pago');
  return { paid: paid.json(), open: paid.json().status === 'CONCLUIDA' ? undefined : txid };
}

/**
 * The model's open Pix follow the shop's documented moves it does not decide itself: a new charge of
 * the same account and purpose removes the earlier open Pix, and a Pix past its deadline expires. Each
 * one no longer open gives back what it held.
 */
async function followOpenCharges(w: World) {
  const open = w.model.charges.filter((c) => c.status === 'open');
  if (!open.length) return;
  const found = await rows<{ txid: string; status: string }>(
    w.ctx.db,
    sql`select txid, status from charges where txid in (${sql.join(
      open.map((c) => c.txid),
      sql`, `,
    )})`,
  );
  for (const c of open) {
    const status = found.find((f) => f.txid === c.txid)?.status;
    if (status === 'ATIVA') continue;
    expect(status, `open Pix ${c.txid} ended without being paid`).not.toBe('CONCLUIDA');
    c.status = 'ended';
    if (c.kind === 'order') w.model.stock[c.combo!]! += c.qty!;
  }
}

/** Runs one operation against a shop and replays it on the model. */
export async function step(w: World, op: Op): Promise<void> {
  if (process.env.MODEL_DEBUG) console.info(JSON.stringify(op));
  await doStep(w, op);
  await followOpenCharges(w);
}

/** Counts an operation that went through (on a lottery event apart, so a run shows what it reached there). */
function done(w: World, what: string) {
  const key = w.model.drawn ? `${what}(sorteio)` : what;
  w.ctx.done[key] = (w.ctx.done[key] ?? 0) + 1;
}

/** Counts a refusal by the lottery's rule (a CPF not drawn, or drawn in another category). */
function refusedByDraw(w: World, what: string, res: Res | undefined) {
  const code = res && res.statusCode === 409 ? (res.json() as { code?: string }).code : undefined;
  if (w.model.drawn && (code === 'nao_sorteado' || code === 'categoria_do_sorteio'))
    w.ctx.done[`${what} recusada pelo sorteio`] = (w.ctx.done[`${what} recusada pelo sorteio`] ?? 0) + 1;
}

/** Counts a refusal by the opening's registrations per CPF. */
function refusedByCpf(w: World, what: string, res: Res | undefined) {
  const code = res && res.statusCode === 409 ? (res.json() as { code?: string }).code : undefined;
  if (code === 'limite_por_cpf') done(w, `${what} recusada pelo limite por CPF`);
}

/**
 * The transfer probe, made of the model's own steps (each checks what it checks): a sale to a runner
 * free in the event (on a lottery event, one drawn, in its category), then a transfer of that place —
 * on a lottery event first to a runner not drawn in its category (refused by the draw) — to a runner
 * free in the event (on a lottery event, one drawn in the same category) whose payment is left open
 * (a Pix), then a sale to that runner by another account (refused by the opening's one registration
 * per CPF while the transfer is being paid); then the transfer's Pix expires, the same sale goes
 * through, and the Pix is paid late (returned: the CPF's one registration is taken). The runners are chosen from the world (the draw is the
 * shop's own random), so every run of every seed reaches the transfer when a place can be sold.
 */
async function transferProbe(w: World, op: Extract<Op, { op: 'transferProbe' }>) {
  const m = w.model;
  const index = (cpf: string) => w.runners.findIndex((x) => x.cpf === cpf);
  const free = w.runners.filter((x) => !m.cpfStanding(x.cpf) && !m.cpfHeld(x.cpf));
  const sellable = m.drawn ? free.filter((x) => m.drawn!.has(x.cpf)) : free;
  const seller = sellable[op.pick % Math.max(1, sellable.length)];
  const buyer = [0, 1, 2].map((k) => (op.buyer + k) % BUYERS).find((b) => m.buyerMay(b));
  if (!seller || buyer === undefined) return;
  await step(w, {
    op: 'register',
    buyer,
    runner: index(seller.cpf),
    cat: 0,
    pay: 'card',
    size: 0,
    coupon: false,
  });
  const standing = m.regs.filter((r) => !r.cancelled);
  const at = standing.findIndex((r) => r.cpf === seller.cpf);
  const r = standing[at];
  if (!r) return;
  const others = w.runners.filter((x) => x.cpf !== seller.cpf);
  if (m.drawn) {
    const undrawn = others.filter((x) => !m.drawnIn(x.cpf, r.cat));
    const to = undrawn[op.pick % undrawn.length]!;
    await step(w, { op: 'transfer', reg: at, runner: index(to.cpf), payer: op.payer, pay: 'pix_open' });
  }
  const targets = others.filter((x) => !m.cpfStanding(x.cpf) && !m.cpfHeld(x.cpf) && m.drawnIn(x.cpf, r.cat));
  const to = targets[op.pick % Math.max(1, targets.length)];
  if (!to) return;
  await step(w, { op: 'transfer', reg: at, runner: index(to.cpf), payer: op.payer, pay: 'pix_open' });
  // Another account (one still within its registrations per buyer, so that only the CPF's limit is
  // asked), in a category with a place. With an opening, the other distance first: its one registration
  // per CPF holds in the whole event, not only in the category (on a lottery event category 0 is the one
  // drawn). Without one, a CPF may hold one registration per category (two races of one event), so the
  // same distance first: the CPF taken in the transferred registration's own category.
  const others2 = [1, 2].map((k) => (op.payer + k + op.other) % BUYERS).filter((b) => b !== op.payer);
  const buyer2 = others2.find((b) => m.buyerMay(b)) ?? others2[0]!;
  const order = m.perBuyer > 0 ? [1 - r.cat, r.cat] : [r.cat, 1 - r.cat];
  const cat = m.drawn ? 0 : (order.find((c) => m.free(c) > 0) ?? order[0]!);
  const sale = {
    op: 'register' as const,
    buyer: buyer2,
    runner: index(to.cpf),
    cat,
    pay: 'card' as const,
    size: 0,
    coupon: false,
  };
  await step(w, sale);
  // Then paid late (docs/decisions/0060, later): the transfer's Pix expires while the payer's bank takes
  // the payment anyway, so the sale to its runner goes through, and then the payment lands. It must be
  // returned, never a second registration for the CPF (the per-CPF check after the probe).
  const c = m.charges.find((x) => x.kind === 'transfer' && x.cpf === to.cpf && x.status === 'open');
  if (!c) return;
  const shop = shopOf(w);
  await expireRacingAPayment(w, shop, c);
  await step(w, sale);
  // The bank's news settles it (the simulated bank answers 409 to a payment past the deadline, after
  // settling the one it already took); the payer's page reads the outcome.
  no5xx(await simulatePixPaid(shop.app, c.txid), 'pix pago tarde');
  c.status = 'paid';
  const read = await shop.app.inject({
    method: 'GET',
    url: `/api/status-pix/${c.txid}/`,
    headers: w.buyers[c.buyer]!.headers,
  });
  no5xx(read, 'status do pix pago tarde');
  const body = read.json();
  // Returned when the CPF was taken meanwhile where the transfer's own request would now be refused: in
  // the event under an opening, in the registration's category without one. Otherwise the late payment
  // completes the transfer, as an on-time one would.
  const taken = m.regs.some((x) => !x.cancelled && x.cpf === to.cpf && (m.perBuyer > 0 || x.cat === r.cat));
  if (!w.racing && taken) {
    expect(body.status, `a late transfer to ${to.cpf}, whose one registration was sold meanwhile`).toBe(
      'DEVOLVIDA',
    );
    done(w, 'payLate devolvido pelo limite por CPF');
  }
  // Completed late (nothing took the CPF meanwhile): the place is the new runner's, bought by the payer.
  if (body.status === 'CONCLUIDA' && body.inscricao_id === r.id) {
    Object.assign(r, { cpf: to.cpf, owner: c.buyer, rule: false });
    w.log.push(`transferência ${r.id} paga com atraso: ${to.cpf}`);
  }
  await followOpenCharges(w);
}

/**
 * A Pix's deadline passes while the payer's bank takes the payment: our removal is answered as done
 * but the bank keeps the charge and pays it (the shop gives its places back), then the bank holds it
 * paid, to be settled late by the next news of it (`simulatePixPaid` on the same shop).
 */
async function expireRacingAPayment(w: World, shop: Shop, c: ModelCharge) {
  w.ctx.clock.now = new Date(w.ctx.clock.now.getTime() + 2 * 60_000);
  const provider = shop.app.providers.payments;
  await removalRacingAPayment(shop.app, async () => {
    const res = await shop.app.inject({
      method: 'GET',
      url: `/api/status-pix/${c.txid}/`,
      headers: w.buyers[c.buyer]!.headers,
    });
    no5xx(res, 'status do pix');
  });
  await followOpenCharges(w);
  expect(provider.simulator!.payPix(c.txid, w.ctx.clock.now, { afterExpiry: true })).not.toBeNull();
}

/**
 * One step of every kind (`TOUR`), each aimed by the model at something it can act on, so that every
 * run, the default seed's included, goes through each kind at least once whatever the random steps
 * drew: a registration, three orders and an open Pix sold first; the shirt and the list of changes tried
 * in both sizes (one is the registration's own); a category filled before its waitlist is joined, a
 * place in it cancelled and the offer taken; one order withdrawn, two shipped, one of them exchanged
 * and the other returned; the Pix expired and paid late. Each step is the model's own (`step`), so
 * each checks what it checks; a step the shop refuses (a rule the model also knows) is only not done.
 */
async function tour(w: World, op: Extract<Op, { op: 'tour' }>) {
  const m = w.model;
  const standing = () => m.regs.filter((r) => !r.cancelled);
  const regIndex = (pred: (r: ModelRegistration) => boolean) => {
    const i = standing().findIndex(pred);
    return i < 0 ? undefined : i;
  };
  const runnerFor = (cat: number) =>
    w.runners.findIndex((x) => !m.cpfStanding(x.cpf) && !m.cpfHeld(x.cpf) && m.drawnIn(x.cpf, cat));
  const buyer = () => [0, 1, 2].map((k) => (op.pick + k) % BUYERS).find((b) => m.buyerMay(b));
  const sell = async (cat: number) => {
    const runner = runnerFor(cat);
    const b = buyer();
    if (runner < 0 || b === undefined || m.free(cat) <= 0) return false;
    await step(w, { op: 'register', buyer: b, runner, cat, pay: 'card', size: 0, coupon: false });
    return true;
  };
  const combo = () => m.stock.findIndex((n) => n > 0);
  const buy = async (pay: Pay) => {
    const c = combo();
    if (c < 0) return;
    await step(w, { op: 'buy', buyer: op.pick % BUYERS, product: c >> 1, size: c % 2, qty: 1, pay });
  };
  const bothSizes = async (make: (size: number) => Op, kind: string) => {
    const count = () =>
      Object.entries(w.ctx.done)
        .filter(([k]) => k.startsWith(kind))
        .reduce((a, [, n]) => a + n, 0);
    const was = count();
    for (const size of [0, 1]) {
      await step(w, make(size));
      if (count() > was) return;
    }
  };
  const orderIndex = (pred: (o: ModelOrder) => boolean, id: number) =>
    m.orders.filter(pred).findIndex((o) => o.id === id);

  // Sales to act on.
  if (!standing().length) await sell(op.pick % 2);
  for (let k = 0; k < 3; k++) await buy('card');
  // The 10 km's special price: tried twice, its one place taken by the first (when a place is free).
  for (let k = 0; k < 2; k++) {
    const runner = runnerFor(1);
    const b = buyer();
    if (runner < 0 || b === undefined || m.free(1) <= 0) break;
    await step(w, {
      op: 'register',
      buyer: b,
      runner,
      cat: 1,
      pay: 'card',
      size: 0,
      coupon: false,
      rule: true,
    });
  }

  // Changes to a registration.
  const shirt = regIndex(() => true);
  if (shirt !== undefined)
    await bothSizes((size) => ({ op: 'changeShirt', reg: shirt, size }), 'changeShirt');
  const movable = (r: ModelRegistration) => m.free(1 - r.cat) > 0 && m.drawnIn(r.cpf, 1 - r.cat);
  // A place in the other distance: when none is free, staff cancel one there.
  const makeRoom = async () => {
    if (regIndex(movable) !== undefined) return;
    const full = [0, 1].find(
      (c) => m.free(c) <= 0 && standing().some((r) => r.cat === 1 - c && m.drawnIn(r.cpf, c)),
    );
    const there = full === undefined ? undefined : regIndex((r) => r.cat === full);
    if (there !== undefined) await step(w, { op: 'staffCancel', reg: there });
  };
  await makeRoom();
  const listed = regIndex(movable);
  if (listed !== undefined)
    await bothSizes((size) => ({ op: 'changeList', reg: listed, size, pay: 'card' }), 'changeList');
  await makeRoom();
  const moved = regIndex(movable);
  if (moved !== undefined) await step(w, { op: 'changeDistance', reg: moved, pay: 'card' });
  const handed = regIndex(() => true);
  const to = handed === undefined ? -1 : runnerFor(standing()[handed]!.cat);
  const payer = buyer();
  if (handed !== undefined && to >= 0 && payer !== undefined)
    await step(w, { op: 'transfer', reg: handed, runner: to, payer, pay: 'card' });

  // The waitlist: the fuller category filled, a runner in line, a place in it cancelled, the offer taken.
  const cat = m.free(0) <= m.free(1) ? 0 : 1;
  while (m.free(cat) > 0 && (await sell(cat))) {}
  const waiting = w.runners.findIndex(
    (x) => !m.cpfStanding(x.cpf) && !m.cpfHeld(x.cpf) && m.drawnIn(x.cpf, cat),
  );
  if (m.free(cat) <= 0 && waiting >= 0) {
    await step(w, { op: 'joinWaitlist', runner: waiting, cat });
    const freed = regIndex((r) => r.cat === cat);
    if (freed !== undefined) await step(w, { op: 'cancel', reg: freed });
    // The freed place is offered by the waitlist's job (queued by the cancellation).
    await settle(w);
    const taker = buyer();
    if (taker !== undefined) await step(w, { op: 'takeOffer', offer: 0, buyer: taker });
  }
  const ended = regIndex(() => true);
  if (ended !== undefined) await step(w, { op: 'staffCancel', reg: ended });

  // Orders: one withdrawn before shipping, two shipped, one exchanged and the other returned.
  if (m.orders.some((o) => o.status === 'pago' && o.left > 0))
    await step(w, { op: 'withdraw', order: 0, whole: false });
  const swappable = (x: ModelOrder) => x.status === 'pago' && x.left === x.qty;
  const toSwap = m.orders.find((x) => swappable(x) && m.stock[sibling(x.combo)]! >= x.qty);
  if (toSwap) await step(w, { op: 'swap', order: m.orders.filter(swappable).indexOf(toSwap) });
  const joinable = (x: ModelOrder) => x.status === 'pago' && x.joins === undefined;
  const toJoin = m.orders.find((x) => joinable(x) && m.stock[x.combo]! > 0);
  if (toJoin)
    await step(w, {
      op: 'add',
      order: m.orders.filter(joinable).indexOf(toJoin),
      size: 0,
      qty: 1,
      pay: 'card',
    });
  const shipped: number[] = [];
  for (let k = 0; k < 2; k++) {
    const o = m.orders.find((x) => shippable(m, x));
    if (!o) break;
    await step(w, { op: 'ship', order: orderIndex((x) => shippable(m, x), o.id) });
    shipped.push(o.id);
  }
  const open = (x: ModelOrder) => x.status === 'entregue' && !x.afterSale && x.left > 0;
  const swapped = m.orders.find(
    (x) => open(x) && m.stock[x.combo % 2 === 0 ? x.combo + 1 : x.combo - 1]! > 0,
  );
  if (swapped) await step(w, { op: 'exchange', order: orderIndex(open, swapped.id) });
  const back = m.orders.find(open);
  if (back) await step(w, { op: 'return', order: orderIndex(open, back.id) });
  if (m.orders.some((x) => x.status !== 'cancelado'))
    await step(w, { op: 'staffRefund', order: 0, share: 0.5 });

  // A Pix left open, expired, then paid late.
  await buy('pix_open');
  await step(w, { op: 'expirePix' });
  const late = m.charges.filter((c) => c.status === 'ended').length;
  if (late) await step(w, { op: 'payLate', charge: late - 1 });
}

/**
 * An order staff ship on its own: paid, and not an addition whose first order still stands (that one
 * moves only with its order, docs/decisions/0087).
 */
const shippable = (m: Model, x: ModelOrder) =>
  x.status === 'pago' &&
  !(x.joins !== undefined && m.orders.some((f) => f.id === x.joins && f.status !== 'cancelado'));

/** The other size of the same product (combo i = product ⌊i/2⌋, size i % 2). */
const sibling = (combo: number) => (combo % 2 === 0 ? combo + 1 : combo - 1);

/** A paid order of `qty` units of `combo` into the model: the units leave the shelf. */
async function paidOrder(
  w: World,
  app: FastifyInstance,
  sale: { id: number; buyer: number; combo: number; qty: number; joins?: number | undefined },
) {
  w.model.stock[sale.combo]! -= sale.qty;
  const itemId = await itemIdOf(app, w.buyers[sale.buyer]!.headers, sale.id);
  w.model.orders.push({
    id: sale.id,
    buyer: sale.buyer,
    combo: sale.combo,
    qty: sale.qty,
    left: sale.qty,
    itemId,
    status: 'pago',
    afterSale: false,
    ...(sale.joins !== undefined ? { joins: sale.joins } : {}),
  });
}

async function doStep(w: World, op: Op): Promise<void> {
  const shop = shopOf(w);
  const { app } = shop;
  const m = w.model;
  const admin = w.ctx.admin.headers;
  const regOf = (i: number) => {
    const standing = m.regs.filter((r) => !r.cancelled);
    return standing.length ? standing[i % standing.length] : undefined;
  };
  const orderOf = (i: number, pred: (o: ModelOrder) => boolean) => {
    const list = m.orders.filter(pred);
    return list.length ? list[i % list.length] : undefined;
  };

  switch (op.op) {
    case 'transferProbe':
      return transferProbe(w, op);
    case 'tour':
      return tour(w, op);
    case 'register': {
      const runner = w.runners[op.runner]!;
      // On a lottery event category 0 stands for the one the runner was drawn in (when drawn), so that
      // winners buy there as often as refusals are tried.
      const cat = op.cat === 0 ? (m.drawn?.get(runner.cpf) ?? 0) : op.cat;
      const buyer = w.buyers[op.buyer]!;
      const draft = participant(w.event, [w.cats[cat]!], {
        ...runner,
        tamanho_camisa: w.kit[op.size],
        ...(op.coupon ? { cupom: w.coupon } : {}),
        ...(op.rule ? { regra_preco: w.rule } : {}),
      });
      // The coupon takes 40 % off (priced by the shop; a used-up coupon is refused, not priced); the
      // special price is half (the 10 km's only).
      const price = (cat === 0 ? 5000 : 8000) * (op.coupon ? 0.6 : 1) * (op.rule ? 0.5 : 1);
      const waiting = await waitingIn(w, cat);
      // A public place: free after standing and held ones, offers out and nobody waiting in line.
      const offers = await offersIn(w, cat);
      const canTake =
        m.free(cat) - offers > 0 &&
        waiting === 0 &&
        !m.cpfStanding(runner.cpf) &&
        !m.cpfHeld(runner.cpf) &&
        op.size === 0 &&
        !op.coupon &&
        m.buyerMay(op.buyer) &&
        m.drawnIn(runner.cpf, cat) &&
        (!op.rule || m.underRule() < RULE_CAP);
      // The opening's one registration per CPF: one standing, or being paid by another account (a sale or
      // a transfer to it; this account's own open Pix is withdrawn by its new charge), and it is refused.
      const overCpf = m.perBuyer > 0 && (m.cpfStanding(runner.cpf) || m.cpfHeld(runner.cpf, op.buyer));
      const ruleFull = m.underRule() >= RULE_CAP;
      const got = await purchase(app, buyer, op.pay, price, { finalidade: 'inscricao', inscricao: draft });
      if (got.paid?.inscricao_id) {
        m.regs.push({
          id: got.paid.inscricao_id as number,
          cat,
          cpf: runner.cpf,
          owner: op.buyer,
          cancelled: false,
          ...(op.rule ? { rule: true } : {}),
        });
        w.log.push(
          `inscrição ${got.paid.inscricao_id}: ${runner.cpf} em ${cat}${op.coupon ? ' (cupom)' : ''}${op.rule ? ' (preço especial)' : ''}`,
        );
        done(w, op.coupon ? 'register(cupom)' : op.rule ? 'register(preço especial)' : 'register');
      } else if (got.open) {
        m.charges.push({
          txid: got.open,
          buyer: op.buyer,
          kind: 'registration',
          status: 'open',
          cat,
          cpf: runner.cpf,
        });
      }
      refusedByDraw(w, 'register', got.refused);
      refusedByCpf(w, 'register', got.refused);
      if (!w.racing && overCpf)
        expect(
          got.paid?.inscricao_id ?? got.open,
          `a sale past the opening's one registration per CPF: ${runner.cpf}`,
        ).toBeUndefined();
      if (!w.racing && canTake && op.pay === 'card')
        expect(got.paid?.inscricao_id, `a free public place refused: ${got.refused?.body}`).toBeDefined();
      // The special price's cap: a sale under it once its places are taken is refused as such.
      if (!w.racing && op.rule && ruleFull && got.refused) {
        expect(got.paid, 'a sale past the special price’s cap').toBeUndefined();
        expect(got.refused.json().code, got.refused.body).toBe('regra_esgotada');
        done(w, 'register(preço especial esgotado)');
      }
      return;
    }
    case 'cancel': {
      const r = regOf(op.reg);
      if (!r) return;
      const buyer = w.buyers[r.owner]!;
      const quote = await app.inject({
        method: 'GET',
        url: `/api/inscricoes/${r.id}/cancelamento/`,
        headers: buyer.headers,
      });
      no5xx(quote, 'cotação do cancelamento');
      if (quote.statusCode !== 200 || !quote.json().permitido) return;
      const before = await refundedOfRun(w);
      const res = await app.inject({
        method: 'POST',
        url: `/api/inscricoes/${r.id}/cancelar/`,
        headers: buyer.headers,
        payload: { valor_devolvido: quote.json().valor_devolvido },
      });
      no5xx(res, 'cancelar');
      expect(res.statusCode, res.body).toBe(200);
      r.cancelled = true;
      done(w, 'cancel');
      // What goes back is what the runner was shown (the run's refunds added up: a step racing on the
      // other shop may refund something of its own meanwhile, so only taking turns).
      if (!w.racing)
        expect(await refundedOfRun(w), 'the cancellation returns the amount it quoted').toBe(
          before + Math.round(quote.json().valor_devolvido * 100),
        );
      w.log.push(`cancelada pelo corredor: ${r.id}`);
      return;
    }
    case 'staffCancel': {
      const r = regOf(op.reg);
      if (!r) return;
      const res = await app.inject({
        method: 'POST',
        url: `/api/painel/registrations/${r.id}/cancel/`,
        headers: admin,
        payload: { motivo: 'Pedido do corredor' },
      });
      no5xx(res, 'cancelamento pela equipe');
      if (res.statusCode === 200) {
        r.cancelled = true;
        done(w, 'staffCancel');
        w.log.push(`cancelada pela equipe: ${r.id}`);
      }
      return;
    }
    case 'transfer': {
      const r = regOf(op.reg);
      if (!r) return;
      const to = w.runners[op.runner]!;
      const asked = await app.inject({
        method: 'POST',
        url: `/api/inscricoes/${r.id}/transferir/`,
        headers: w.buyers[r.owner]!.headers,
        payload: to,
      });
      no5xx(asked, 'transferir');
      refusedByDraw(w, 'transfer', asked);
      refusedByCpf(w, 'transfer', asked);
      const accepted = asked.statusCode === 201 || asked.statusCode === 200;
      // A drawn place goes only to a CPF drawn in its category; on an opening, never to a CPF that
      // holds its one registration or is being paid for (a sale, another transfer).
      if (!w.racing && m.drawn && !m.drawnIn(to.cpf, r.cat))
        expect(accepted, `a drawn place offered to a CPF not drawn in its category: ${asked.body}`).toBe(
          false,
        );
      if (!w.racing && m.perBuyer > 0 && (m.cpfStanding(to.cpf) || m.cpfHeld(to.cpf)))
        expect(accepted, `a transfer to a CPF past its one registration: ${asked.body}`).toBe(false);
      if (!accepted) return;
      const token = await vi.waitFor(
        () => {
          const mail = readOutbox(shop.dataDir)
            .filter((x) => x.includes(to.email) && x.includes('/inscricoes/transferencia/'))
            .at(-1);
          const found = mail?.match(/\/inscricoes\/transferencia\/([A-Za-z0-9_-]+)/)?.[1];
          if (!found) throw new Error('no transfer e-mail');
          return found;
        },
        { timeout: 10_000, interval: 50 },
      );
      const payer = w.buyers[op.payer]!;
      const draft = {
        ...participant(w.event, [w.cats[r.cat]!], { ...to, data_nascimento: '1992-03-04' }),
        transferencia: token,
      };
      // The fee (R$ 10), and the difference to the lot's price of a place sold under the special price.
      const priced = await app.inject({
        method: 'GET',
        url: `/api/transferencias/${token}/preco/?data_nascimento=1992-03-04`,
      });
      no5xx(priced, 'preço da transferência');
      const amount = Math.round((priced.json() as { total: number }).total * 100);
      if (!w.racing) expect(amount, 'a transfer’s price').toBe(r.rule ? 1000 + 4000 : 1000);
      if (op.pay === 'pix_open') {
        // Left being paid: the new runner's CPF counts against the opening's limit until it ends.
        const got = await purchase(app, payer, 'pix_open', amount, {
          finalidade: 'inscricao',
          inscricao: draft,
        });
        if (got.open) {
          m.charges.push({
            txid: got.open,
            buyer: op.payer,
            kind: 'transfer',
            status: 'open',
            cpf: to.cpf,
            reg: r.id,
          });
          w.log.push(`transferência ${r.id} em pagamento: ${r.cpf} → ${to.cpf}`);
          done(w, 'transfer(em pagamento)');
          return;
        }
      }
      const paid =
        op.pay === 'card'
          ? await cardPay(app, payer, APPROVED_CARD, amount, { finalidade: 'inscricao', inscricao: draft })
          : undefined;
      if (paid) no5xx(paid, 'pagar transferência');
      if (paid?.statusCode === 200) {
        w.log.push(`transferência ${r.id}: ${r.cpf} → ${to.cpf}`);
        done(w, r.rule ? 'transfer(preço especial)' : 'transfer');
        Object.assign(r, { cpf: to.cpf, owner: op.payer, rule: false });
      } else {
        await app.inject({
          method: 'POST',
          url: `/api/inscricoes/${r.id}/transferencia/cancelar/`,
          headers: w.buyers[r.owner]!.headers,
        });
      }
      return;
    }
    case 'changeDistance': {
      const r = regOf(op.reg);
      if (!r) return;
      const buyer = w.buyers[r.owner]!;
      const de = w.cats[r.cat];
      const toCat = 1 - r.cat;
      const para = w.cats[toCat];
      const quote = await app.inject({
        method: 'GET',
        url: `/api/inscricoes/${r.id}/troca-distancia/?de=${de}&para=${para}`,
        headers: buyer.headers,
      });
      no5xx(quote, 'cotação da troca de distância');
      if (m.drawn && quote.statusCode === 200 && /sorteada/.test(quote.json().motivo ?? ''))
        w.ctx.done['changeDistance recusada pelo sorteio'] =
          (w.ctx.done['changeDistance recusada pelo sorteio'] ?? 0) + 1;
      if (quote.statusCode !== 200 || !quote.json().permitido) return;
      const q = quote.json();
      if (q.a_pagar > 0) {
        const got = await purchase(
          app,
          buyer,
          op.pay === 'card' ? 'card' : 'pix_open',
          Math.round(q.a_pagar * 100),
          {
            finalidade: 'inscricao',
            inscricao: { troca_distancia: { inscricao: r.id, de, para } },
          },
        );
        if (got.paid) {
          w.log.push(`troca de distância ${r.id}: ${r.cat} → ${toCat} (paga)`);
          done(w, 'changeDistance(paga)');
          Object.assign(r, { cat: toCat, rule: false });
        } else if (got.open) {
          m.charges.push({
            txid: got.open,
            buyer: r.owner,
            kind: 'change',
            status: 'open',
            cat: toCat,
            reg: r.id,
          });
        }
        return;
      }
      const res = await app.inject({
        method: 'POST',
        url: `/api/inscricoes/${r.id}/trocar-distancia/`,
        headers: buyer.headers,
        payload: { de, para, a_devolver: q.a_devolver },
      });
      no5xx(res, 'trocar distância');
      if (res.statusCode === 200) {
        w.log.push(`troca de distância ${r.id}: ${r.cat} → ${toCat}`);
        done(w, 'changeDistance');
        Object.assign(r, { cat: toCat, rule: false });
      }
      return;
    }
    case 'changeList': {
      // The other distance and a shirt at once: one quote, one charge or one refund (decision 0056, later).
      const r = regOf(op.reg);
      if (!r) return;
      const buyer = w.buyers[r.owner]!;
      const toCat = 1 - r.cat;
      const operacoes = [
        { tipo: 'distancia', categoria_id: w.cats[toCat], de: w.cats[r.cat] },
        { tipo: 'camiseta', tamanho: w.kit[op.size] },
      ];
      const quote = await app.inject({
        method: 'POST',
        url: `/api/inscricoes/${r.id}/alteracoes/cotacao/`,
        headers: buyer.headers,
        payload: { operacoes },
      });
      no5xx(quote, 'cotação da lista de alterações');
      if (quote.statusCode !== 200 || !quote.json().permitido) return;
      const q = quote.json();
      if (q.a_pagar > 0) {
        const got = await purchase(
          app,
          buyer,
          op.pay === 'card' ? 'card' : 'pix_open',
          Math.round(q.a_pagar * 100),
          { finalidade: 'inscricao', inscricao: { alteracoes: { inscricao: r.id, operacoes } } },
        );
        if (got.paid) {
          w.log.push(`lista de alterações ${r.id}: ${r.cat} → ${toCat} e camisa (paga)`);
          done(w, 'changeList(paga)');
          Object.assign(r, { cat: toCat, rule: false });
        } else if (got.open) {
          m.charges.push({
            txid: got.open,
            buyer: r.owner,
            kind: 'change',
            status: 'open',
            cat: toCat,
            reg: r.id,
          });
        }
        return;
      }
      const res = await app.inject({
        method: 'POST',
        url: `/api/inscricoes/${r.id}/alteracoes/`,
        headers: buyer.headers,
        payload: { operacoes, a_devolver: q.a_devolver },
      });
      no5xx(res, 'lista de alterações');
      if (res.statusCode === 200) {
        w.log.push(`lista de alterações ${r.id}: ${r.cat} → ${toCat} e camisa`);
        done(w, 'changeList');
        Object.assign(r, { cat: toCat, rule: false });
      }
      return;
    }
    case 'changeShirt': {
      const r = regOf(op.reg);
      if (!r) return;
      const res = await app.inject({
        method: 'POST',
        url: `/api/inscricoes/${r.id}/trocar-tamanho/`,
        headers: w.buyers[r.owner]!.headers,
        payload: { tamanho_camisa: w.kit[op.size] },
      });
      no5xx(res, 'trocar tamanho');
      if (res.statusCode === 200) done(w, 'changeShirt');
      return;
    }
    case 'joinWaitlist': {
      const runner = w.runners[op.runner]!;
      const res = await app.inject({
        method: 'POST',
        url: `/api/events/${w.event.id}/lista-espera/`,
        payload: { categoria: w.cats[op.cat], ...runner },
      });
      no5xx(res, 'lista de espera');
      if (res.statusCode === 201) {
        done(w, 'joinWaitlist');
        w.log.push(`lista de espera: ${runner.cpf} em ${op.cat}`);
      }
      return;
    }
    case 'takeOffer': {
      const offers = await offersOf(w);
      if (!offers.length) return;
      const offer = offers[op.offer % offers.length]!;
      const cat = w.cats.indexOf(offer.categoryId);
      const token = offerToken(shop, w, offer.email);
      if (!token) return;
      const runner = w.runners.find((x) => x.cpf === offer.cpf)!;
      const buyer = w.buyers[op.buyer]!;
      const draft = participant(w.event, [offer.categoryId], { ...runner, oferta_espera: token });
      const res = await cardPay(app, buyer, APPROVED_CARD, cat === 0 ? 5000 : 8000, {
        finalidade: 'inscricao',
        inscricao: draft,
      });
      no5xx(res, 'aceitar oferta');
      // The holder of a live offer gets the place, unless the same CPF stands in the event already (then the
      // shop refuses any registration, which the model checks as the per-CPF rule).
      if (
        !w.racing &&
        !m.cpfStanding(runner.cpf) &&
        !m.cpfHeld(runner.cpf) &&
        m.buyerMay(op.buyer) &&
        m.drawnIn(runner.cpf, cat)
      )
        expect(res.statusCode, `a held waitlist offer was not honoured: ${res.body}`).toBe(200);
      if (res.statusCode === 200) {
        m.regs.push({ id: res.json().inscricao_id, cat, cpf: runner.cpf, owner: op.buyer, cancelled: false });
        w.log.push(`oferta aceita: ${runner.cpf} em ${cat}`);
        done(w, 'takeOffer');
      }
      return;
    }
    case 'buy': {
      const combo = op.product * 2 + op.size;
      const c = w.combos[combo]!;
      const buyer = w.buyers[op.buyer]!;
      const draft = {
        ...orderDraft(buyer, [{ product: c.product, quantity: op.qty, stockIndex: c.index }]),
        cpf: BUYER_CPF,
        metodo_pagamento: op.pay.startsWith('card') ? ('cartao' as const) : ('pix' as const),
      };
      const total = await draftTotalCents(app, buyer.zipCode, draft, [c.product]);
      const enough = m.stock[combo]! >= op.qty;
      // A new charge may remove this account's earlier open Pix for an order, giving its units back.
      const ownHeld = m.charges
        .filter((x) => x.status === 'open' && x.kind === 'order' && x.buyer === op.buyer && x.combo === combo)
        .reduce((n, x) => n + x.qty!, 0);
      const never = m.stock[combo]! + ownHeld < op.qty;
      const got = await purchase(app, buyer, op.pay, total, { finalidade: 'pedido', pedido: draft });
      if (got.paid?.pedido_id) {
        done(w, 'buy');
        await paidOrder(w, app, { id: got.paid.pedido_id as number, buyer: op.buyer, combo, qty: op.qty });
      } else if (got.open) {
        m.stock[combo]! -= op.qty;
        m.charges.push({
          txid: got.open,
          buyer: op.buyer,
          kind: 'order',
          status: 'open',
          combo,
          qty: op.qty,
        });
      }
      if (!w.racing && enough && op.pay === 'card')
        expect(got.paid?.pedido_id, `units in stock refused: ${got.refused?.body}`).toBeDefined();
      if (never) expect(got.paid?.pedido_id ?? got.open, 'more units sold than in stock').toBeUndefined();
      return;
    }
    case 'expirePix': {
      // The Pix's deadline passes; the buyer's page asks about each one (the reconciliation's path).
      w.ctx.clock.now = new Date(w.ctx.clock.now.getTime() + 2 * 60_000);
      const open = m.charges.filter((x) => x.status === 'open');
      if (open.length) done(w, 'expirePix');
      for (const c of open) {
        const res = await app.inject({
          method: 'GET',
          url: `/api/status-pix/${c.txid}/`,
          headers: w.buyers[c.buyer]!.headers,
        });
        no5xx(res, 'status do pix');
      }
      return;
    }
    case 'payLate': {
      // A Pix paid at the bank after its deadline: fulfilled if what it held is still there, else returned.
      const ended = m.charges.filter((c) => c.status === 'ended');
      if (!ended.length) return;
      const c = ended[op.charge % ended.length]!;
      no5xx(await simulatePixPaid(app, c.txid), 'pix pago tarde');
      c.status = 'paid';
      // The bank's answer to a payment past the deadline may be 409 while it keeps the money: the shop
      // settles what it took either way, and the payer's page reads the outcome.
      const read = await app.inject({
        method: 'GET',
        url: `/api/status-pix/${c.txid}/`,
        headers: w.buyers[c.buyer]!.headers,
      });
      no5xx(read, 'status do pix pago tarde');
      const body = read.json();
      // Returned (what it held was gone, or a limit of the opening was used meanwhile): counted apart.
      done(w, body.status === 'DEVOLVIDA' ? 'payLate devolvido' : 'payLate');
      if (c.kind === 'order' && body.pedido_id)
        await paidOrder(w, app, {
          id: body.pedido_id,
          buyer: c.buyer,
          combo: c.combo!,
          qty: c.qty!,
          joins: c.joins,
        });
      if (c.kind === 'registration' && body.inscricao_id)
        m.regs.push({ id: body.inscricao_id, cat: c.cat!, cpf: c.cpf!, owner: c.buyer, cancelled: false });
      if (c.kind === 'transfer' && body.inscricao_id) {
        const r = m.regs.find((x) => x.id === c.reg);
        if (r) {
          Object.assign(r, { cpf: c.cpf!, owner: c.buyer, rule: false });
        }
      }
      if (c.kind === 'change' && body.inscricao_id) {
        const r = m.regs.find((x) => x.id === c.reg);
        if (r && !r.cancelled) Object.assign(r, { cat: c.cat!, rule: false });
      }
      return;
    }
    case 'withdraw': {
      const o = orderOf(op.order, (x) => x.status === 'pago' && x.left > 0);
      if (!o) return;
      const n = op.whole ? o.left : 1;
      const res = await app.inject({
        method: 'POST',
        url: `/api/orders/${o.id}/desistencia/`,
        headers: w.buyers[o.buyer]!.headers,
        payload: { itens: [{ item_id: o.itemId, quantidade: n }], motivo: 'Comprei a mais' },
      });
      no5xx(res, 'desistência');
      if (res.statusCode !== 201) return;
      o.left -= n;
      done(w, 'withdraw');
      m.stock[o.combo]! += n;
      if (o.left === 0) o.status = 'cancelado';
      return;
    }
    case 'ship': {
      // An addition ships in its order's parcel, alone only once that order was cancelled.
      const o = orderOf(op.order, (x) => shippable(m, x));
      if (!o) return;
      const move = (payload: object) =>
        app.inject({ method: 'POST', url: `/api/painel/orders/${o.id}/status/`, headers: admin, payload });
      const packing = await move({ status: 'em separação' });
      no5xx(packing, 'em separação');
      if (packing.statusCode !== 200) return;
      // Staff ship once the order's NF-e is back from SEFAZ.
      await settle(w);
      const sent = await move({ status: 'enviado', codigo_rastreio: 'AA123456785BR' });
      no5xx(sent, 'enviado');
      expect(sent.statusCode, sent.body).toBe(200);
      const delivered = await move({ status: 'entregue' });
      expect(delivered.statusCode, delivered.body).toBe(200);
      o.status = 'entregue';
      // Its additions took each step with it.
      for (const a of m.orders.filter((x) => x.joins === o.id && x.status === 'pago')) a.status = 'entregue';
      done(w, 'ship');
      return;
    }
    case 'add': {
      // Units added before shipping (docs/decisions/0087): an order of its own, paid at the product's price
      // with no shipping, in the first order's parcel.
      const o = orderOf(op.order, (x) => x.status === 'pago' && x.joins === undefined);
      if (!o) return;
      const combo = op.size ? sibling(o.combo) : o.combo;
      const c = w.combos[combo]!;
      const buyer = w.buyers[o.buyer]!;
      const {
        address_id: _a,
        frete: _f,
        ...lines
      } = orderDraft(buyer, [{ product: c.product, quantity: op.qty, stockIndex: c.index }]);
      const draft = {
        ...lines,
        metodo_pagamento: op.pay.startsWith('card') ? ('cartao' as const) : ('pix' as const),
        complemento_de: o.id,
      };
      const enough = m.stock[combo]! >= op.qty;
      const got = await purchase(app, buyer, op.pay, c.product.priceCents * op.qty, {
        finalidade: 'pedido',
        pedido: draft,
      });
      if (got.paid?.pedido_id) {
        done(w, 'add');
        const id = got.paid.pedido_id as number;
        await paidOrder(w, app, { id, buyer: o.buyer, combo, qty: op.qty, joins: o.id });
      } else if (got.open) {
        m.stock[combo]! -= op.qty;
        m.charges.push({
          txid: got.open,
          buyer: o.buyer,
          kind: 'order',
          status: 'open',
          combo,
          qty: op.qty,
          joins: o.id,
        });
      }
      if (!w.racing && enough && op.pay === 'card')
        expect(
          got.paid?.pedido_id,
          `an addition with the units in stock refused: ${got.refused?.body}`,
        ).toBeDefined();
      return;
    }
    case 'return': {
      const o = orderOf(op.order, (x) => x.status === 'entregue' && !x.afterSale && x.left > 0);
      if (!o) return;
      const asked = await app.inject({
        method: 'POST',
        url: `/api/orders/${o.id}/devolucoes/`,
        headers: w.buyers[o.buyer]!.headers,
        payload: { itens: [{ item_id: o.itemId, quantidade: o.left }], motivo: 'arrependimento' },
      });
      no5xx(asked, 'devolução');
      if (asked.statusCode !== 201) return;
      o.afterSale = true;
      const id = asked.json().id as number;
      const received = await receive(app, admin, id, o.itemId);
      if (!received) return;
      m.stock[o.combo]! += o.left;
      done(w, 'return');
      o.left = 0;
      // Staff refund what the queue suggests.
      const entry = await returnEntry(app, admin, id);
      if (entry.sugestao > 0) {
        const refund = await app.inject({
          method: 'POST',
          url: `/api/painel/devolucoes/${id}/reembolso/`,
          headers: admin,
          payload: { valor: entry.sugestao, versao: entry.versao },
        });
        no5xx(refund, 'reembolso da devolução');
      }
      return;
    }
    case 'swap': {
      // The buyer swaps the whole line to the other size before it ships (docs/decisions/0065): the NF-e
      // made before it is replaced (the NF-e check after every step reads the goods it names).
      const o = orderOf(op.order, (x) => x.status === 'pago' && x.left === x.qty);
      if (!o) return;
      const other = sibling(o.combo);
      const c = w.combos[other]!;
      const headers = w.buyers[o.buyer]!.headers;
      const seen = await app.inject({ method: 'GET', url: `/api/orders/${o.id}/pos-venda/`, headers });
      no5xx(seen, 'pós-venda');
      const res = await app.inject({
        method: 'POST',
        url: `/api/orders/${o.id}/alteracoes/`,
        headers,
        payload: {
          trocas: [{ item_id: o.itemId, quantidade: o.qty, cor_id: c.colorId, tamanho_id: c.sizeId }],
          versao: seen.json().versao,
        },
      });
      no5xx(res, 'troca antes do envio');
      if (res.statusCode !== 201) {
        if (!w.racing && (res.json() as { code?: string }).code === 'estoque_insuficiente')
          expect(m.stock[other]!, `a swap refused with the units in stock: ${res.body}`).toBeLessThan(o.qty);
        return;
      }
      m.stock[o.combo]! += o.qty;
      m.stock[other]! -= o.qty;
      o.combo = other;
      done(w, 'swap');
      return;
    }
    case 'exchange': {
      const o = orderOf(op.order, (x) => x.status === 'entregue' && !x.afterSale && x.left > 0);
      if (!o) return;
      const other = sibling(o.combo);
      const c = w.combos[other]!;
      const asked = await app.inject({
        method: 'POST',
        url: `/api/orders/${o.id}/trocas/`,
        headers: w.buyers[o.buyer]!.headers,
        payload: {
          itens: [{ item_id: o.itemId, quantidade: 1, cor_id: c.colorId, tamanho_id: c.sizeId }],
          motivo: 'arrependimento',
        },
      });
      no5xx(asked, 'troca');
      if (asked.statusCode !== 201) {
        if (!w.racing)
          expect(m.stock[other], `an exchange refused with the unit in stock: ${asked.body}`).toBe(0);
        return;
      }
      o.afterSale = true;
      m.stock[other]! -= 1;
      const id = asked.json().id as number;
      const received = await receive(app, admin, id, o.itemId);
      if (!received) return;
      m.stock[o.combo]! += 1;
      const entry = await returnEntry(app, admin, id);
      const shipped = await app.inject({
        method: 'POST',
        url: `/api/painel/devolucoes/${id}/troca-enviada/`,
        headers: admin,
        payload: { codigo_rastreio: 'AA123456785BR', versao: entry.versao },
      });
      no5xx(shipped, 'troca enviada');
      expect(shipped.statusCode, shipped.body).toBe(200);
      done(w, 'exchange');
      return;
    }
    case 'staffRefund': {
      const o = orderOf(op.order, (x) => x.status !== 'cancelado');
      if (!o) return;
      const url = `/api/painel/orders/${o.id}/reembolsos/`;
      const seen = await app.inject({ method: 'GET', url, headers: admin });
      no5xx(seen, 'reembolsos');
      const { restante, reembolsos } = seen.json();
      const valor = Math.round(restante * op.share * 100) / 100;
      if (valor <= 0) return;
      const res = await app.inject({
        method: 'POST',
        url,
        headers: admin,
        payload: { valor, motivo: 'Ajuste do modelo', reembolsos_vistos: reembolsos.length },
      });
      no5xx(res, 'reembolso parcial');
      expect(res.statusCode, res.body).toBe(200);
      done(w, 'staffRefund');
      return;
    }
  }
}

async function itemIdOf(app: FastifyInstance, headers: Record<string, string>, orderId: number) {
  const list = (await app.inject({ method: 'GET', url: '/api/orders/', headers })).json();
  return list.find((o: { id: number }) => o.id === orderId).items[0].item_id as number;
}

async function returnEntry(app: FastifyInstance, admin: Record<string, string>, id: number) {
  const list = (await app.inject({ method: 'GET', url: '/api/painel/devolucoes/', headers: admin })).json();
  return list.find((r: { id: number }) => r.id === id) as {
    versao: number;
    sugestao: number;
    status: string;
  };
}

/** Staff mark a return posted and receive its unit back to stock; answers whether it was received. */
async function receive(app: FastifyInstance, admin: Record<string, string>, id: number, itemId: number) {
  const posted = await app.inject({
    method: 'POST',
    url: `/api/painel/devolucoes/${id}/postada/`,
    headers: admin,
    payload: { versao: (await returnEntry(app, admin, id)).versao },
  });
  no5xx(posted, 'postada');
  if (posted.statusCode !== 200) return false;
  const received = await app.inject({
    method: 'POST',
    url: `/api/painel/devolucoes/${id}/recebida/`,
    headers: admin,
    payload: { itens: [{ item_id: itemId, estoque: true }], versao: posted.json().versao },
  });
  no5xx(received, 'recebida');
  expect(received.statusCode, received.body).toBe(200);
  return true;
}

/** Everything refunded so far on the charges of this run's accounts, in centavos. */
async function refundedOfRun(w: World) {
  const [r] = await rows<{ n: string | null }>(
    w.ctx.db,
    sql`select sum(f.amount_cents) as n from charge_refunds f join charges c on c.id = f.charge_id
        where c.user_id in (${sql.join(
          w.buyers.map((b) => b.id),
          sql`, `,
        )})`,
  );
  return Number(r!.n ?? 0);
}

async function rows<T>(db: Db, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

async function offersOf(w: World) {
  return rows<{ categoryId: number; cpf: string; email: string }>(
    w.ctx.db,
    sql`select category_id as "categoryId", cpf, email from waitlist_entries
        where event_id = ${w.event.id} and status = 'oferta' order by id`,
  );
}
async function offersIn(w: World, cat: number) {
  return (await offersOf(w)).filter((o) => o.categoryId === w.cats[cat]).length;
}
async function waitingIn(w: World, cat: number) {
  const [r] = await rows<{ n: string }>(
    w.ctx.db,
    sql`select count(*) as n from waitlist_entries where category_id = ${w.cats[cat]} and status = 'aguardando'`,
  );
  return Number(r!.n);
}

/** The offer's link from the latest "reservada para você" e-mail to that address, in any shop's outbox. */
function offerToken(_shop: Shop, w: World, email: string): string | undefined {
  for (const s of w.ctx.shops) {
    const mail = readOutbox(s.dataDir)
      .filter(
        (x) =>
          x.toLowerCase().includes(`to: ${email.toLowerCase()}`) && x.includes('está reservada para você'),
      )
      .at(-1);
    const token = mail && /lista-espera\/(\d+-[0-9a-f]{32}-[A-Za-z0-9_-]{22})/.exec(mail)?.[1];
    if (token) return token;
  }
  return undefined;
}

/**
 * Lets the shops' background work catch up: the waitlist's sweep is queued and every sweep, offer e-mail
 * and nota job due now has run (pg-boss's own table, read only).
 */
export async function settle(w: World) {
  await w.ctx.shops[0]!.app.jobs.send('waitlist.sweep', {}, { singletonKey: 'waitlist' });
  await vi.waitFor(
    async () => {
      const pending = await rows<{ name: string; state: string; retry_count: number }>(
        w.ctx.db,
        sql`select name, state, retry_count from pgboss.job
            where (name like 'fiscal.%' or name in ('waitlist.sweep', 'mail.waitlist'))
              and name <> 'fiscal.retry-pending' and name <> 'fiscal.issue-event-month'
              and state in ('created', 'retry', 'active') and start_after <= now()`,
      );
      expect(JSON.stringify(pending), 'background jobs still due').toBe('[]');
    },
    { timeout: 20_000, interval: 50 },
  );
}

// ---------------------------------------------------------------------------------------------------
// The invariants, read from the database after every step

async function checkInvariants(w: World): Promise<void> {
  const db = w.ctx.db;
  const m = w.model;
  const productIds = w.products.map((p) => p.id);

  // Places: standing registrations ≤ capacity, the model's count, what is left covers the offers out.
  for (const [i, cat] of w.cats.entries()) {
    const [r] = await rows<{ standing: string; places_left: number; offers: string }>(
      db,
      sql`select (select count(*) from registration_categories rc join registrations r on r.id = rc.registration_id
                   where rc.category_id = ${cat} and rc.cancelled_at is null and r.cancelled_at is null) as standing,
                 (select quantidade_disponivel from event_categories where id = ${cat}) as places_left,
                 (select count(*) from waitlist_entries where category_id = ${cat} and status = 'oferta') as offers`,
    );
    const standing = Number(r!.standing);
    expect(standing, `places sold ≤ capacity in category ${i}`).toBeLessThanOrEqual(m.capacity[i]!);
    expect(standing, `standing registrations in category ${i} (model)`).toBe(m.standing(i));
    expect(Number(r!.places_left), `places left in category ${i} never below zero`).toBeGreaterThanOrEqual(0);
    expect(
      Number(r!.offers),
      `held waitlist offers in category ${i} covered by places left`,
    ).toBeLessThanOrEqual(Number(r!.places_left));
  }

  // The special price: never on more places than its cap; the model's count of standing registrations
  // under it matches (a transfer or a change of distance took theirs out of it).
  const [special] = await rows<{ marked: string; standing: string }>(
    db,
    sql`select (select count(*) from place_reservations
                 where price_rule_id = ${w.rule} and released_at is null) as marked,
               (select count(*) from registration_categories rc join registrations r on r.id = rc.registration_id
                 where rc.price_rule_id = ${w.rule} and r.cancelled_at is null and rc.cancelled_at is null) as standing`,
  );
  expect(Number(special!.marked), 'places under the special price ≤ its cap').toBeLessThanOrEqual(RULE_CAP);
  expect(Number(special!.standing), 'registrations under the special price ≤ its cap').toBeLessThanOrEqual(
    RULE_CAP,
  );
  if (!w.racing)
    expect(Number(special!.standing), 'registrations under the special price (model)').toBe(m.underRule());

  // The race coupon: never more standing registrations with it than its uses.
  const [coupon] = await rows<{ n: string }>(
    db,
    sql`select count(*) as n from registrations
        where event_id = ${w.event.id} and cancelled_at is null and coupon_code = ${w.coupon}`,
  );
  expect(Number(coupon!.n), 'registrations with the coupon ≤ its uses').toBeLessThanOrEqual(COUPON_USES);

  // The opening's registrations per buyer, whatever path gave an account a registration (a sale, a
  // waitlist offer, a transfer paid by it).
  if (m.perBuyer > 0) {
    const over = await rows<{ account: number; n: string }>(
      db,
      sql`select account_user_id as account, count(*) as n from registrations
          where event_id = ${w.event.id} and cancelled_at is null
          group by account_user_id having count(*) > ${m.perBuyer}`,
    );
    expect(over, 'standing registrations per buying account ≤ the opening’s limit').toEqual([]);
    // And one per CPF in the event, whatever path gave it (a sale, an offer, a transfer paid late).
    const cpfOver = await rows<{ cpf: string; n: string }>(
      db,
      sql`select cpf, count(*) as n from registrations
          where event_id = ${w.event.id} and cancelled_at is null
          group by cpf having count(*) > 1`,
    );
    expect(cpfOver, 'standing registrations per CPF ≤ the opening’s one').toEqual([]);
  }

  // A lottery's places: only a CPF drawn, and only in the category it was drawn in, whatever path put it
  // there (a sale, a waitlist offer, a transfer, a change of distance).
  if (m.drawn) {
    const undrawn = await rows<{ id: number; cpf: string; category_id: number }>(
      db,
      sql`select r.id, r.cpf, rc.category_id from registrations r
            join registration_categories rc on rc.registration_id = r.id
          where r.event_id = ${w.event.id} and r.cancelled_at is null and rc.cancelled_at is null
            and not exists (select 1 from lottery_entries e where e.event_id = r.event_id and e.cpf = r.cpf
                              and e.category_id = rc.category_id and e.won_in_draw is not null)`,
    );
    expect(undrawn, 'every standing registration of a lottery event is a CPF drawn in its category').toEqual(
      [],
    );
  }

  // One standing registration per CPF in a category (the shop's per-CPF rule; a CPF may hold another
  // category of the same event), whatever path put it there (a sale, a transfer, a change of distance).
  const twice = await rows<{ cpf: string; category_id: number; n: string }>(
    db,
    sql`select rc.cpf, rc.category_id, count(*) as n from registration_categories rc
          join registrations r on r.id = rc.registration_id
        where r.event_id = ${w.event.id} and rc.cancelled_at is null and r.cancelled_at is null
        group by rc.cpf, rc.category_id having count(*) > 1`,
  );
  expect(twice, 'one standing registration per CPF in a category').toEqual([]);
  // The registration's CPF and its categories' agree (a transfer moves both).
  const mismatched = await rows<{ id: number }>(
    db,
    sql`select r.id from registrations r join registration_categories rc on rc.registration_id = r.id
        where r.event_id = ${w.event.id} and r.cancelled_at is null and rc.cancelled_at is null and rc.cpf <> r.cpf`,
  );
  expect(mismatched, 'a standing registration and its categories name one CPF').toEqual([]);

  // Charges of this run: every refund ≤ what was paid; every paid charge ends in a sale or a refund.
  const userIds = w.buyers.map((b) => b.id);
  const charges = await rows<{
    id: number;
    purpose: string;
    status: string;
    amount: number;
    refunded: string | null;
    refunds: string;
    sale: boolean;
  }>(
    db,
    sql`select c.id, c.purpose, c.status, c.amount_cents as amount,
          (select sum(amount_cents) from charge_refunds where charge_id = c.id and status <> 'NAO_REALIZADO') as refunded,
          (select count(*) from charge_refunds where charge_id = c.id) as refunds,
          (exists (select 1 from orders o where o.charge_id = c.id)
            or exists (select 1 from registrations r where r.charge_id = c.id)
            or exists (select 1 from registration_transfers t where t.charge_id = c.id and t.status = 'concluida')
            or exists (select 1 from registration_changes h where (h.detail->>'cobranca')::int = c.id)
            or exists (select 1 from order_returns x where x.difference_charge_id = c.id)) as sale
        from charges c where c.user_id in (${sql.join(userIds, sql`, `)})`,
  );
  for (const c of charges) {
    expect(Number(c.refunded ?? 0), `refunds of charge ${c.id} ≤ its amount`).toBeLessThanOrEqual(c.amount);
    if (c.status === 'CONCLUIDA')
      expect(
        c.sale || Number(c.refunds) > 0,
        `paid charge ${c.id} (${c.purpose}) ends in a sale or a refund`,
      ).toBe(true);
    if (c.status === 'DEVOLVIDA')
      expect(Number(c.refunds), `returned charge ${c.id} has its refund`).toBeGreaterThan(0);
  }

  // Stock: the model, the stock table and the ledger agree.
  for (const [i, c] of w.combos.entries()) {
    const [s] = await rows<{ quantity: number; sum: string | null; initial: string; last: number | null }>(
      db,
      sql`select s.quantity,
            (select sum(delta) from stock_movements mv where mv.product_id = s.product_id and mv.color_id = s.color_id
               and mv.size_id = s.size_id and mv.reason <> 'saldo_inicial') as sum,
            (select count(*) from stock_movements mv where mv.product_id = s.product_id and mv.color_id = s.color_id
               and mv.size_id = s.size_id and mv.reason = 'saldo_inicial') as initial,
            (select quantity_after from stock_movements mv where mv.product_id = s.product_id and mv.color_id = s.color_id
               and mv.size_id = s.size_id order by mv.id desc limit 1) as last
          from stock s where s.product_id = ${c.product.id} and s.color_id = ${c.colorId} and s.size_id = ${c.sizeId}`,
    );
    expect(s!.quantity, `stock of combo ${i} (model)`).toBe(m.stock[i]);
    expect(m.initialStock[i]! + Number(s!.sum ?? 0), `stock ledger of combo ${i} adds up to the stock`).toBe(
      s!.quantity,
    );
    if (s!.last !== null) expect(s!.last, `last ledger line of combo ${i} is the stock`).toBe(s!.quantity);
  }

  // Every shipped unit has an authorised NF-e: an order sent, an exchange's replacement sent.
  const unshipped = await rows<{ id: number; what: string }>(
    db,
    sql`select o.id, 'pedido' as what from orders o
          where o.id in (select distinct order_id from order_items oi where oi.product_id in (${sql.join(productIds, sql`, `)}))
            and o.status in ('enviado', 'entregue')
            and not exists (select 1 from fiscal_documents f where f.order_id = o.id and f.kind = 'nfe' and f.status = 'autorizada')
        union all
        select x.id, 'troca' as what from order_returns x
          where x.kind = 'troca' and x.exchange_tracking_code is not null
            and x.order_id in (select distinct order_id from order_items oi where oi.product_id in (${sql.join(productIds, sql`, `)}))
            and not exists (select 1 from fiscal_documents f where f.return_id = x.id and f.kind = 'nfe' and f.status = 'autorizada')`,
  );
  expect(unshipped, 'every shipped unit has an authorised NF-e').toEqual([]);

  // ...and the order's NF-e in force names what shipped: a line swapped before shipping (colour, size) is
  // in the NF-e that replaced the first one (cProd is product-colour-size).
  const named = await rows<{ id: number; code: string; xml: string | null }>(
    db,
    sql`select o.id, concat_ws('-', oi.product_id, oi.color_id, oi.size_id) as code,
          (select convert_from(f.xml, 'UTF8') from fiscal_documents f
            where f.order_id = o.id and f.kind = 'nfe' and f.return_id is null and f.status = 'autorizada'
            order by f.id desc limit 1) as xml
        from orders o join order_items oi on oi.order_id = o.id
        where oi.product_id in (${sql.join(productIds, sql`, `)}) and o.status in ('enviado', 'entregue')`,
  );
  const misnamed = named.filter((n) => !n.xml?.includes(`<cProd>${n.code}</cProd>`)).map((n) => n.id);
  expect(misnamed, 'the NF-e in force names the goods each shipped order holds').toEqual([]);
}

/**
 * One run: a fresh world, the steps, the checks after each; the log of what happened on failure. With
 * `race`, each pair of steps is sent to the two shops at once (PostgreSQL), then checked.
 */
export async function runSequence(
  ctx: FileContext,
  shape: WorldShape,
  ops: Op[],
  opts: { race?: boolean } = {},
): Promise<void> {
  const w = await makeWorld(ctx, shape);
  const batches: Op[][] = [];
  for (let i = 0; i < ops.length; i += opts.race ? 2 : 1) batches.push(ops.slice(i, i + (opts.race ? 2 : 1)));
  for (const [i, batch] of batches.entries()) {
    const op = batch[0]!;
    try {
      if (batch.length > 1) {
        w.racing = true;
        await Promise.all(batch.map((o) => step(w, o)));
        w.racing = false;
      } else await step(w, op);
      // Background work (offers, notas, e-mails) caught up where the step freed places or moved goods.
      if (batch.some((o) => !['register', 'buy', 'joinWaitlist', 'changeShirt', 'transfer'].includes(o.op)))
        await settle(w);
      await checkInvariants(w);
    } catch (err) {
      const where = `step ${i + 1} of ${batches.length}: ${JSON.stringify(batch)}`;
      if (err instanceof Error)
        err.message = `${where}\n${err.message}${err.cause instanceof Error ? `\n${err.cause.message}` : ''}\n${w.log.join('\n')}`;
      throw err;
    }
  }
}
