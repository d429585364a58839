import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { registrationChanges, registrations } from '../../db/schema/index.ts';
import { kitLeft, type MadeEvent, makeEvent, placesLeft } from '../../test/factories/events.ts';
import { makeBuyer } from '../../test/factories/orders.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { cpfFrom, participant, registrationCard } from '../../test/factories/registrations.ts';
import { useClockedTestApp } from '../../test/test-app.ts';

// 10:00 in Fortaleza on 24 November 2026; the race starts on the 28th at 06:00 (09:00 UTC).
const START = new Date('2026-11-24T13:00:00Z');
const TODAY = '2026-11-24';
const FORTY_EIGHT_HOURS_BEFORE = new Date('2026-11-26T09:00:00Z');
const APPROVED_CARD = '4111111111111111';

type Who = { headers: Record<string, string> };

/**
 * The organiser's after-sale rules and a runner cancelling alone (docs/decisions/0035-runner-after-sale.md):
 * the full refund of the consumer code's 7 days, the rule after them, the amount shown before confirming.
 */
describe('after the sale: rules and cancelling by the runner', () => {
  const t = useClockedTestApp(START);
  let buyer: Awaited<ReturnType<typeof makeBuyer>>;
  let stranger: Awaited<ReturnType<typeof makeBuyer>>;
  let admin: TestStaff;
  let operator: TestStaff;
  let cpfSeq = 520_000_000;

  beforeAll(async () => {
    buyer = await makeBuyer(t.app);
    stranger = await makeBuyer(t.app);
    admin = await createStaffAndLogin(t.app, 'admin');
    operator = await createStaffAndLogin(t.app, 'operador');
  });

  const db = () => t.app.db;
  const request = (method: 'GET' | 'POST' | 'PUT', who: Who | null, url: string, payload?: object) =>
    t.app.inject({ method, url, headers: who?.headers ?? {}, ...(payload ? { payload } : {}) });
  const newEvent = (name: string) =>
    makeEvent(db(), {
      name,
      today: TODAY,
      startDate: '2026-11-28',
      registrationDeadline: '2026-11-27',
      kitSizes: [{ size: 'M', left: 10 }],
    });
  const cat = (e: MadeEvent) => e.days[0]!.categories[1]!.id;
  const rulesUrl = (e: MadeEvent) => `/api/painel/events/${e.id}/pos-venda/`;

  /** One runner registered by the buyer on the direct path, paid R$ 109,90 by card. */
  async function paidRegistration(event: MadeEvent) {
    const draft = participant(event, [cat(event)], {
      nome_completo: 'Rita Corredora',
      cpf: cpfFrom(cpfSeq++),
      email: `rita.${cpfSeq}@example.com`,
      tamanho_camisa: event.kitSizes![0]!.id,
    });
    const paid = await registrationCard(t.app, {
      number: APPROVED_CARD,
      draft,
      total: 109.9,
      user: buyer,
      key: randomUUID(),
    });
    expect(paid.statusCode).toBe(200);
    return { draft, id: paid.json().inscricao_id as number };
  }

  async function saveRules(event: MadeEvent, changes: Record<string, unknown>) {
    const current = (await request('GET', admin, rulesUrl(event))).json();
    const { texto: _, ...body } = current;
    const saved = await request('PUT', admin, rulesUrl(event), { ...body, ...changes });
    expect(saved.statusCode).toBe(200);
    return saved.json();
  }

  it('an event follows the defaults until the organiser saves its own rules, from the version read', async () => {
    const event = await newEvent('Corrida das Regras');
    const read = await request('GET', admin, rulesUrl(event));
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({
      versao: 1,
      cancelamento_horas_minimas: 48,
      cancelamento_apos_prazo: 'nao',
      transferencia_permitida: true,
      transferencia_ate: null,
      transferencia_taxa: 0,
      lista_espera_horas_oferta: 24,
    });
    const { texto: _, ...body } = read.json();

    // Only admins save them.
    expect((await request('PUT', operator, rulesUrl(event), body)).statusCode).toBe(403);

    const saved = await request('PUT', admin, rulesUrl(event), {
      ...body,
      cancelamento_apos_prazo: 'taxa',
      cancelamento_taxa: 20,
      transferencia_taxa: 15.5,
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ versao: 2, cancelamento_taxa: 20, transferencia_taxa: 15.5 });

    // A second save from the same (now stale) form is refused and changes nothing.
    const stale = await request('PUT', admin, rulesUrl(event), { ...body, transferencia_taxa: 0 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ code: 'versao_desatualizada' });
    expect((await request('GET', admin, rulesUrl(event))).json()).toMatchObject({
      versao: 2,
      transferencia_taxa: 15.5,
    });

    // Bad input names its field.
    const bad = await request('PUT', admin, rulesUrl(event), {
      ...body,
      versao: 2,
      cancelamento_percentual_retido: 120,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toHaveProperty('cancelamento_percentual_retido');

    // The event's pages say them in Portuguese.
    const text = await request('GET', null, `/api/events/${event.id}/pos-venda/`);
    expect(text.statusCode).toBe(200);
    expect(text.json().texto.join('\n')).toMatch(/com taxa de R\$\s20,00/);
    expect(text.json().texto.join('\n')).toMatch(/até 27\/11\/2026, taxa de R\$\s15,50/);
  });

  it('within 7 days and 48 hours before the start the runner gets everything back; the place, shirt and QR go', async () => {
    const event = await newEvent('Corrida do Arrependimento Sozinho');
    const { draft, id } = await paidRegistration(event);
    expect(await placesLeft(db(), cat(event))).toBe(99);
    expect(await kitLeft(db(), event.kitSizes![0]!.id)).toBe(9);

    // Someone else's registration does not exist for them.
    expect((await request('GET', stranger, `/api/inscricoes/${id}/cancelamento/`)).statusCode).toBe(404);
    expect(
      (await request('POST', stranger, `/api/inscricoes/${id}/cancelar/`, { valor_devolvido: 109.9 }))
        .statusCode,
    ).toBe(404);

    t.clock = FORTY_EIGHT_HOURS_BEFORE;
    const quote = await request('GET', buyer, `/api/inscricoes/${id}/cancelamento/`);
    expect(quote.json()).toEqual({
      permitido: true,
      motivo: null,
      valor_pago: 109.9,
      valor_devolvido: 109.9,
      valor_retido: 0,
      arrependimento: true,
    });
    const refundsBefore = t.app.providers.payments.simulator!.refunds().length;
    const done = await request('POST', buyer, `/api/inscricoes/${id}/cancelar/`, { valor_devolvido: 109.9 });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({ permitido: false, motivo: 'Esta inscrição já foi cancelada.' });
    const refunds = t.app.providers.payments.simulator!.refunds();
    expect(refunds).toHaveLength(refundsBefore + 1);
    expect(refunds.at(-1)).toMatchObject({ amountCents: 10990 });
    expect(await placesLeft(db(), cat(event))).toBe(100);
    expect(await kitLeft(db(), event.kitSizes![0]!.id)).toBe(10);

    // The lookup shows it cancelled, without a QR code; the history records who and how much.
    const lookup = await request('GET', buyer, `/api/participantes/cpf/${draft.cpf}/?evento=${event.id}`);
    expect(lookup.json()).toMatchObject({ cancelada_em: FORTY_EIGHT_HOURS_BEFORE.toISOString() });
    expect(lookup.json()).not.toHaveProperty('qr_code');
    const history = await db()
      .select()
      .from(registrationChanges)
      .where(eq(registrationChanges.registrationId, id));
    expect(history).toMatchObject([
      { kind: 'cancelamento', actor: 'comprador', feeCents: 0, refundCents: 10990 },
    ]);

    // A second cancellation is refused and moves nothing.
    const again = await request('POST', buyer, `/api/inscricoes/${id}/cancelar/`, { valor_devolvido: 109.9 });
    expect(again.statusCode).toBe(409);
    expect(t.app.providers.payments.simulator!.refunds()).toHaveLength(refundsBefore + 1);
    expect(await placesLeft(db(), cat(event))).toBe(100);
  });

  it('one minute too late the organiser’s rule applies: refused by default, the fee kept when set, the amount re-checked', async () => {
    const event = await newEvent('Corrida da Taxa');
    const { id } = await paidRegistration(event);
    t.clock = new Date(FORTY_EIGHT_HOURS_BEFORE.getTime() + 60_000);

    const refused = await request('GET', buyer, `/api/inscricoes/${id}/cancelamento/`);
    expect(refused.json()).toMatchObject({
      permitido: false,
      motivo: 'Pelas regras do organizador, esta inscrição não pode mais ser cancelada.',
    });
    const tried = await request('POST', buyer, `/api/inscricoes/${id}/cancelar/`, { valor_devolvido: 0 });
    expect(tried.statusCode).toBe(409);
    expect(tried.json()).toMatchObject({ code: 'cancelamento_nao_permitido' });

    // The organiser sets a fee of R$ 20,00 (signed in today): the runner is shown R$ 89,90; an old amount is refused.
    const late = t.clock;
    t.clock = START;
    await saveRules(event, { cancelamento_apos_prazo: 'taxa', cancelamento_taxa: 20 });
    t.clock = late;
    const quote = await request('GET', buyer, `/api/inscricoes/${id}/cancelamento/`);
    expect(quote.json()).toMatchObject({
      permitido: true,
      valor_devolvido: 89.9,
      valor_retido: 20,
      arrependimento: false,
    });
    const wrong = await request('POST', buyer, `/api/inscricoes/${id}/cancelar/`, { valor_devolvido: 109.9 });
    expect(wrong.statusCode).toBe(409);
    expect(wrong.json()).toMatchObject({ code: 'valor_divergente', valor_devolvido: 89.9 });
    const [still] = await db().select().from(registrations).where(eq(registrations.id, id));
    expect(still!.cancelledAt).toBeNull();

    const done = await request('POST', buyer, `/api/inscricoes/${id}/cancelar/`, { valor_devolvido: 89.9 });
    expect(done.statusCode).toBe(200);
    expect(t.app.providers.payments.simulator!.refunds().at(-1)).toMatchObject({ amountCents: 8990 });
    const [history] = await db()
      .select()
      .from(registrationChanges)
      .where(eq(registrationChanges.registrationId, id));
    expect(history).toMatchObject({ feeCents: 2000, refundCents: 8990 });
  });

  it('a fee of zero after the window returns everything, and nothing is returned once the race started', async () => {
    const event = await newEvent('Corrida da Taxa Zero');
    const { id } = await paidRegistration(event);
    await saveRules(event, { cancelamento_apos_prazo: 'taxa', cancelamento_taxa: 0 });
    t.clock = new Date('2026-11-28T08:59:00Z');
    expect((await request('GET', buyer, `/api/inscricoes/${id}/cancelamento/`)).json()).toMatchObject({
      permitido: true,
      valor_devolvido: 109.9,
      valor_retido: 0,
      arrependimento: false,
    });
    t.clock = new Date('2026-11-28T09:00:00Z');
    expect((await request('GET', buyer, `/api/inscricoes/${id}/cancelamento/`)).json()).toMatchObject({
      permitido: false,
      motivo: 'O evento já começou: a inscrição não pode mais ser cancelada.',
    });
  });
});
