import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { PainelPriceRuleSchema, ProofReviewSchema } from '@passada/core/contracts/price-rules';
import { formatBRL } from '@passada/core/money';
import { eq } from 'drizzle-orm';
import PDFDocument from 'pdfkit';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { priceRuleProofs, registrationCategories } from '../../db/schema/index.ts';
import { readOutbox, waitForMailContaining } from '../../test/factories/accounts.ts';
import { type MadeEvent, makeEvent } from '../../test/factories/events.ts';
import { type Buyer, makeBuyer } from '../../test/factories/orders.ts';
import {
  createStaffAndLogin,
  decompressionBomb,
  picture,
  type TestStaff,
  uploadProof,
} from '../../test/factories/painel.ts';
import {
  APPROVED_CARD,
  cpfFrom,
  participant,
  registrationCard,
  requestAs,
} from '../../test/factories/registrations.ts';
import { TEAMS_START, teamsRace } from '../../test/factories/teams.ts';
import { useClockedTestApp } from '../../test/test-app.ts';
import { untilJobsDone } from '../../test/wait-until.ts';

/** A real one-page PDF, as a phone's scanner app saves a document. */
function pdf(): Promise<Buffer> {
  return new Promise((resolve) => {
    const doc = new PDFDocument({ size: 'A4' });
    const parts: Buffer[] = [];
    doc.on('data', (b: Buffer) => parts.push(b));
    doc.on('end', () => resolve(Buffer.concat(parts)));
    doc.text('Carteira de Identificação Estudantil');
    doc.end();
  });
}

/** Price rules by who the runner is (docs/decisions/0068), through the HTTP layer. */
describe('price rules: students, lists and their proofs', () => {
  const t = useClockedTestApp(TEAMS_START);
  const request = requestAs(() => t.app);
  let admin: TestStaff;
  let buyer: Buyer;
  let race: MadeEvent;
  let student: number;
  let club: number;
  let cpfSeq = 730_000_000;
  const ten = () => race.days[0]!.categories[1]!.id;
  const ids: number[] = [];

  const upload = (who: Buyer, bytes: Buffer, filename: string, type: string) =>
    uploadProof(t.app, who, bytes, filename, type);

  async function register(fields: Record<string, unknown>, total: number, who: Buyer = buyer) {
    const cpf = (fields.cpf as string | undefined) ?? cpfFrom(cpfSeq++);
    return registrationCard(t.app, {
      number: APPROVED_CARD,
      draft: participant(race, [ten()], { email: `regra.${cpf}@example.com`, ...fields, cpf }),
      total,
      user: who,
      key: randomUUID(),
    });
  }

  beforeAll(async () => {
    admin = await createStaffAndLogin(t.app, 'admin');
    buyer = await makeBuyer(t.app);
    race = await teamsRace(t.app, 'Corrida da Meia-Entrada');
  });

  it('the organiser sets a students’ half price with a cap and a club’s fixed price from a CSV of CPFs', async () => {
    const url = `/api/painel/events/${race.id}/regras-preco/`;
    const bad = await request('POST', admin, url, {
      categoria: ten(),
      publico: 'lista',
      nome: 'Clube',
      desconto: 'preco_fixo',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.preco_fixo).toBe('Informe o preço fixo.');
    const made = await request('POST', admin, url, {
      categoria: ten(),
      publico: 'estudante',
      nome: 'Estudante (meia-entrada)',
      desconto: 'meia',
      limite_vagas: 2,
      limite_percentual: 40,
    });
    expect(made.statusCode).toBe(201);
    const clubMade = await request('POST', admin, url, {
      categoria: ten(),
      publico: 'lista',
      nome: 'Sócios do Clube',
      desconto: 'preco_fixo',
      preco_fixo: 30,
      exige_comprovante: false,
    });
    const rules = PainelPriceRuleSchema.array().parse(clubMade.json());
    student = rules.find((r) => r.publico === 'estudante')!.id;
    club = rules.find((r) => r.publico === 'lista')!.id;
    // 40 % of the 10 km's 100 places is 40; the cap in places is smaller.
    expect(rules.find((r) => r.id === student)).toMatchObject({
      limite: 2,
      usadas: 0,
      nome_categoria: '10 km',
    });

    const csv = ['cpf;nome', `${cpfFrom(739_000_001)};Sócia Um`, '111.111.111-11;Inválido', ''].join('\r\n');
    const imported = await request('PUT', admin, `${url}${club}/lista/`, { csv });
    expect(imported.json()).toEqual({
      cpfs: 1,
      recusadas: [{ linha: 3, motivo: 'CPF inválido: 111.111.111-11' }],
    });
    expect((await request('PUT', admin, `${url}${student}/lista/`, { csv })).statusCode).toBe(409);
    // Only who edits events sets prices.
    const desk = await createStaffAndLogin(t.app, 'checkin');
    expect(
      (
        await request('POST', desk, url, {
          categoria: ten(),
          publico: 'pcd',
          nome: 'PCD',
          desconto: 'gratis',
        })
      ).statusCode,
    ).toBe(403);

    // The registration form reads them priced for the lot in force.
    const offered = await request('GET', null, `/api/events/${race.id}/regras-preco/`);
    expect(offered.statusCode).toBe(200);
    expect(offered.json()).toEqual([
      expect.objectContaining({ id: student, preco: 54.95, exige_comprovante: true, esgotada: false }),
      expect.objectContaining({ id: club, preco: 30, exige_comprovante: false, comprovante: null }),
    ]);
  });

  it('a student pays half with a proof sent before paying; no proof, a coupon on top or the full total is refused', async () => {
    const none = await register({ regra_preco: student }, 54.95);
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ code: 'comprovante_ausente' });

    // A decompression bomb and a GIF never reach the disk; a photo and a PDF do.
    expect((await upload(buyer, await decompressionBomb(), 'cie.png', 'image/png')).statusCode).toBe(422);
    const gif = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#000' } })
      .gif()
      .toBuffer();
    expect((await upload(buyer, gif, 'cie.gif', 'image/gif')).statusCode).toBe(415);
    const photo = await upload(buyer, await picture('jpeg', 2000), 'cie.jpg', 'image/jpeg');
    expect(photo.statusCode).toBe(201);
    expect(photo.json()).toMatchObject({ tipo: 'image/webp' });
    const proof = photo.json().comprovante as string;
    const scanned = await upload(buyer, await pdf(), 'cie.pdf', 'application/pdf');
    expect(scanned.json()).toMatchObject({ tipo: 'application/pdf' });

    // Another account cannot use it.
    const stranger = await makeBuyer(t.app);
    const stolen = await register({ regra_preco: student, comprovante: proof }, 54.95, stranger);
    expect(stolen.json()).toMatchObject({ code: 'comprovante_invalido' });
    expect(
      (await register({ regra_preco: student, comprovante: proof, cupom: 'QUALQUER' }, 54.95)).json().code,
    ).toBe('cupom_nao_acumula');
    const full = await register({ regra_preco: student, comprovante: proof }, 109.9);
    expect(full.statusCode).toBe(409);
    expect(full.json()).toMatchObject({ code: 'total_divergente', total_correto: 54.95 });

    const paid = await register(
      { regra_preco: student, comprovante: proof, nome_completo: 'Ana Estudante' },
      54.95,
    );
    expect(paid.statusCode).toBe(200);
    const id = paid.json().inscricao_id as number;
    ids.push(id);
    const [race10] = await t.app.db
      .select()
      .from(registrationCategories)
      .where(eq(registrationCategories.registrationId, id));
    expect(race10).toMatchObject({ priceCents: 5_495, priceRuleId: student });
    const [kept] = await t.app.db
      .select()
      .from(priceRuleProofs)
      .where(eq(priceRuleProofs.registrationId, id));
    expect(kept).toMatchObject({ status: 'pendente', ruleId: student, mediaType: 'image/webp' });
    expect(kept!.dueAt!.getTime() - TEAMS_START.getTime()).toBe(72 * 3_600_000);
    // The proof is taken: a second registration cannot reuse it.
    expect((await register({ regra_preco: student, comprovante: proof }, 54.95)).json().code).toBe(
      'comprovante_invalido',
    );

    const second = await register(
      {
        regra_preco: student,
        comprovante: scanned.json().comprovante,
        nome_completo: 'Bruno Estudante',
        whatsapp: true,
        numero_contato: '(85) 98877-1122',
      },
      54.95,
    );
    expect(second.statusCode).toBe(200);
    ids.push(second.json().inscricao_id as number);
  });

  it('the cap holds: past 2 students the rule is refused and shown sold out, the normal price still sells', async () => {
    const photo = await upload(buyer, await picture('png', 800), 'cie.png', 'image/png');
    const third = await register({ regra_preco: student, comprovante: photo.json().comprovante }, 54.95);
    expect(third.statusCode).toBe(409);
    expect(third.json().code).toBe('regra_esgotada');
    const offered = await request('GET', null, `/api/events/${race.id}/regras-preco/`);
    expect(offered.json().find((r: { id: number }) => r.id === student).esgotada).toBe(true);
    expect((await register({}, 109.9)).statusCode).toBe(200);
    const rules = PainelPriceRuleSchema.array().parse(
      (await request('GET', admin, `/api/painel/events/${race.id}/regras-preco/`)).json(),
    );
    expect(rules.find((r) => r.id === student)).toMatchObject({ usadas: 2, limite: 2 });
  });

  it('a list’s price only for a CPF on it, with no proof', async () => {
    const outside = await register({ regra_preco: club }, 30);
    expect(outside.statusCode).toBe(400);
    expect(outside.json()).toMatchObject({
      code: 'fora_da_lista',
      errors: { regra_preco: expect.any(String) },
    });
    const member = await register({ regra_preco: club, cpf: cpfFrom(739_000_001) }, 30);
    expect(member.statusCode).toBe(200);
    ids.push(member.json().inscricao_id as number);
    const [row] = await t.app.db
      .select()
      .from(priceRuleProofs)
      .where(eq(priceRuleProofs.registrationId, member.json().inscricao_id as number));
    expect(row).toBeUndefined();
  });

  it('staff review the proofs beside the runner’s data; a refusal is e-mailed with the difference; one decision only', async () => {
    const desk = await createStaffAndLogin(t.app, 'checkin');
    expect((await request('GET', desk, '/api/painel/comprovantes/')).statusCode).toBe(403);
    const queue = await request('GET', admin, `/api/painel/comprovantes/?evento=${race.id}`);
    expect(queue.statusCode).toBe(200);
    const pending = ProofReviewSchema.array().parse(queue.json());
    expect(pending.map((p) => [p.nome_completo, p.regra.nome, p.pago, p.situacao])).toEqual([
      ['Ana Estudante', 'Estudante (meia-entrada)', 54.95, 'pendente'],
      ['Bruno Estudante', 'Estudante (meia-entrada)', 54.95, 'pendente'],
    ]);
    const file = await request('GET', admin, pending[0]!.arquivo!);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/webp');
    expect(file.headers['cache-control']).toBe('no-store');
    expect((await sharp(file.rawPayload).metadata()).width).toBe(1200);
    expect((await request('GET', admin, pending[1]!.arquivo!)).headers['content-type']).toBe(
      'application/pdf',
    );

    const decide = (id: number, body: object) =>
      request('POST', admin, `/api/painel/comprovantes/${id}/decisao/`, body);
    // The desk's card: the rule, and whether the document is to be checked there; never the file.
    const deskCard = async (id: number) =>
      (
        await request('POST', admin, '/api/painel/checkin/preview/', { evento: race.id, inscricao: id })
      ).json();
    expect(await deskCard(pending[0]!.inscricao)).toMatchObject({
      confira_documento: true,
      preco_especial: { regra: 'Estudante (meia-entrada)', documento: 'conferir' },
    });
    // The offline desk's snapshot says the same, and a decision moves its version (no stale 304).
    const snapshotUrl = `/api/painel/checkin/offline/?evento=${race.id}`;
    const offline = async (etag?: string) =>
      t.app.inject({
        method: 'GET',
        url: snapshotUrl,
        headers: { ...admin.headers, ...(etag ? { 'if-none-match': etag } : {}) },
      });
    const ticketOf = (body: { inscricoes: Array<{ id: number }> }, id: number) =>
      body.inscricoes.find((i) => i.id === id);
    const before = await offline();
    expect(ticketOf(before.json(), pending[0]!.inscricao)).toMatchObject({
      confira_documento: true,
      preco_especial: { regra: 'Estudante (meia-entrada)', documento: 'conferir' },
    });
    expect((await offline(before.headers.etag as string)).statusCode).toBe(304);
    expect((await decide(pending[0]!.id, { decisao: 'aprovar' })).json().situacao).toBe('aprovado');
    const afterDecision = await offline(before.headers.etag as string);
    expect(afterDecision.statusCode).toBe(200);
    expect(ticketOf(afterDecision.json(), pending[0]!.inscricao)).toMatchObject({
      confira_documento: false,
      preco_especial: { documento: 'conferido' },
    });
    expect(ticketOf(afterDecision.json(), ids[2]!)).toMatchObject({
      confira_documento: false,
      preco_especial: { regra: 'Sócios do Clube', documento: 'nao_pedido' },
    });
    expect(await deskCard(pending[0]!.inscricao)).toMatchObject({
      confira_documento: false,
      preco_especial: { regra: 'Estudante (meia-entrada)', documento: 'conferido' },
    });
    expect((await deskCard(ids[2]!)).preco_especial).toEqual({
      regra: 'Sócios do Clube',
      documento: 'nao_pedido',
    });
    expect((await decide(pending[1]!.id, { decisao: 'recusar', motivo: '' })).statusCode).toBe(400);
    const refused = await decide(pending[1]!.id, {
      decisao: 'recusar',
      motivo: 'A carteira venceu em 2025.',
    });
    expect(refused.json()).toMatchObject({ situacao: 'recusado', motivo: 'A carteira venceu em 2025.' });
    expect((await decide(pending[1]!.id, { decisao: 'aprovar' })).json().code).toBe('ja_analisado');
    const mail = await waitForMailContaining(t.dataDir, 'A carteira venceu em 2025.');
    expect(mail).toContain(`inscrição nº ${pending[1]!.inscricao}`);
    expect(mail).toContain(`a diferença é de ${formatBRL(10_990 - 5_495)}`);
    expect(mail).toContain('devolução integral');
    // Bruno opted in to WhatsApp: the same news there, through the approved template.
    await untilJobsDone(t.app.db, 'whatsapp.proof-refused');
    const dir = path.join(t.dataDir, 'outbox', 'whatsapp');
    const sent = readdirSync(dir)
      .map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as { template: string; text: string })
      .filter((m) => m.template === 'comprovante_recusado');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.text).toContain('Olá, Bruno! O comprovante do preço especial Estudante (meia-entrada)');
    expect(sent[0]!.text).toContain('não foi aceito: A carteira venceu em 2025.');
    expect((await request('GET', admin, `/api/painel/comprovantes/?evento=${race.id}`)).json()).toEqual([]);
  });

  it('a transfer of a half-price place to someone else charges the difference; the place leaves the rule and its proof is erased', async () => {
    const url = `/api/painel/events/${race.id}/pos-venda/`;
    const { texto: _, ...rules } = (await request('GET', admin, url)).json();
    expect((await request('PUT', admin, url, { ...rules, transferencia_taxa: 15 })).statusCode).toBe(200);
    const ana = ids[0]!;
    const [proof] = await t.app.db
      .select()
      .from(priceRuleProofs)
      .where(eq(priceRuleProofs.registrationId, ana));
    const file = path.join(t.dataDir, 'comprovantes', proof!.fileName!);
    expect(existsSync(file)).toBe(true);

    const to = { nome_completo: 'Caio Recebe', cpf: cpfFrom(cpfSeq++), email: `caio.${cpfSeq}@example.com` };
    expect((await request('POST', buyer, `/api/inscricoes/${ana}/transferir/`, to)).statusCode).toBe(201);
    const token = readOutbox(t.dataDir)
      .filter((m) => m.includes(to.email))
      .at(-1)
      ?.match(/\/inscricoes\/transferencia\/([A-Za-z0-9_-]+)/)?.[1];
    expect(token).toBeTruthy();
    const friend = await makeBuyer(t.app);
    const pay = (total: number) =>
      registrationCard(t.app, {
        number: APPROVED_CARD,
        draft: {
          ...participant(race, [ten()], { ...to, data_nascimento: '1992-03-04' }),
          transferencia: token,
        },
        total,
        user: friend,
        key: randomUUID(),
      });
    // The new runner's page says the special price does not pass on, and what that costs.
    const quoted = await request(
      'GET',
      null,
      `/api/transferencias/${token}/preco/?data_nascimento=1992-03-04`,
    );
    expect(quoted.json()).toMatchObject({
      taxa: 15,
      diferenca: 54.95,
      total: 69.95,
      aviso: expect.stringContaining('«Estudante (meia-entrada)» era de quem fez a inscrição e não passa'),
    });
    // The fee alone is not enough: the difference to the lot's price comes with it.
    const short = await pay(15);
    expect(short.statusCode).toBe(409);
    expect(short.json()).toMatchObject({ code: 'total_divergente', total_correto: 15 + 54.95 });
    expect((await pay(69.95)).statusCode).toBe(200);

    const [race10] = await t.app.db
      .select()
      .from(registrationCategories)
      .where(eq(registrationCategories.registrationId, ana));
    expect(race10!.priceRuleId).toBeNull();
    const after = PainelPriceRuleSchema.array().parse(
      (await request('GET', admin, `/api/painel/events/${race.id}/regras-preco/`)).json(),
    );
    expect(after.find((r) => r.id === student)!.usadas).toBe(1);
    expect(
      await t.app.db.select().from(priceRuleProofs).where(eq(priceRuleProofs.registrationId, ana)),
    ).toEqual([]);
    await expect.poll(() => existsSync(file), { timeout: 15_000 }).toBe(false);
  });

  it('the event’s report splits the races by price: each rule, the lot’s price, to the cent', async () => {
    const res = await request('GET', admin, `/api/painel/relatorios/eventos/${race.id}/`);
    expect(res.statusCode).toBe(200);
    const report = res.json();
    // What this file sold, summed by hand: Bruno's half price (Ana's left the rule with her transfer and
    // counts at what it was sold for, its difference in pos_venda), the club's R$ 30, one full R$ 109,90.
    expect(report.por_regra).toEqual([
      { regra: 'Preço do lote', regra_id: null, inscricoes: 2, canceladas: 0, valor: 164.85 },
      { regra: 'Estudante (meia-entrada)', regra_id: student, inscricoes: 1, canceladas: 0, valor: 54.95 },
      { regra: 'Sócios do Clube', regra_id: club, inscricoes: 1, canceladas: 0, valor: 30 },
    ]);
    const cents = (rows: Array<{ valor: number }>) =>
      rows.reduce((sum, r) => sum + Math.round(r.valor * 100), 0);
    expect(cents(report.por_regra)).toBe(cents(report.por_lote));
    expect(report.pos_venda).toBe(69.95);
  });

  it('after a refused proof the runner may leave with everything back, whatever the event’s cancellation rules', async () => {
    const bruno = ids[1]!;
    const quote = await request('GET', buyer, `/api/inscricoes/${bruno}/cancelamento/`);
    expect(quote.statusCode).toBe(200);
    expect(quote.json()).toMatchObject({
      permitido: true,
      valor_pago: 54.95,
      valor_devolvido: 54.95,
      valor_retido: 0,
    });
    const done = await request('POST', buyer, `/api/inscricoes/${bruno}/cancelar/`, {
      valor_devolvido: 54.95,
    });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({ valor_devolvido: 54.95, valor_retido: 0 });
    // Its place goes back to the rule's cap.
    const rules = PainelPriceRuleSchema.array().parse(
      (await request('GET', admin, `/api/painel/events/${race.id}/regras-preco/`)).json(),
    );
    expect(rules.find((r) => r.id === student)!.usadas).toBe(0);
  });

  it('past the 7 days of withdrawal, a refused proof still lets the runner leave with everything back; a plain registration keeps the event’s rules', async () => {
    const later = await makeEvent(t.app.db, {
      name: 'Corrida de Janeiro',
      today: '2026-11-24',
      startDate: '2027-01-10',
      registrationDeadline: '2027-01-05',
    });
    const category = later.days[0]!.categories[1]!.id;
    const made = await request('POST', admin, `/api/painel/events/${later.id}/regras-preco/`, {
      categoria: category,
      publico: 'professor',
      nome: 'Professores',
      desconto: 'meia',
      // Staff have two weeks to review: the refusal below comes within them.
      prazo_analise_horas: 14 * 24,
    });
    const rule = (made.json() as Array<{ id: number }>)[0]!.id;
    const proof = (await upload(buyer, await picture('jpeg', 900), 'contracheque.jpg', 'image/jpeg')).json();
    const pay = (fields: Record<string, unknown>, total: number) => {
      const cpf = cpfFrom(cpfSeq++);
      return registrationCard(t.app, {
        number: APPROVED_CARD,
        draft: participant(later, [category], { cpf, email: `jan.${cpf}@example.com`, ...fields }),
        total,
        user: buyer,
        key: randomUUID(),
      });
    };
    const teacher = (await pay({ regra_preco: rule, comprovante: proof.comprovante }, 54.95)).json()
      .inscricao_id;
    const plain = (await pay({}, 109.9)).json().inscricao_id;
    // Ten days later the withdrawal is over; then staff refuse the teacher's proof.
    t.clock = new Date('2026-12-04T13:00:00Z');
    // (A new sign-in: the back office's sessions end sooner than ten days.)
    const reviewer = await createStaffAndLogin(t.app, 'gerente');
    const again = { headers: { authorization: `Token ${await t.app.accounts.users.issueToken(buyer.id)}` } };
    const [pending] = ProofReviewSchema.array().parse(
      (await request('GET', reviewer, `/api/painel/comprovantes/?evento=${later.id}`)).json(),
    );
    const refused = await request('POST', reviewer, `/api/painel/comprovantes/${pending!.id}/decisao/`, {
      decisao: 'recusar',
      motivo: 'Declaração de outro ano.',
    });
    expect(refused.statusCode).toBe(200);
    const plainQuote = (await request('GET', again, `/api/inscricoes/${plain}/cancelamento/`)).json();
    expect(plainQuote.arrependimento).toBe(false);
    expect(plainQuote.permitido && plainQuote.valor_devolvido === 109.9).toBe(false);
    const quote = await request('GET', again, `/api/inscricoes/${teacher}/cancelamento/`);
    expect(quote.json()).toMatchObject({
      permitido: true,
      valor_pago: 54.95,
      valor_devolvido: 54.95,
      valor_retido: 0,
    });
    const done = await request('POST', again, `/api/inscricoes/${teacher}/cancelar/`, {
      valor_devolvido: 54.95,
    });
    expect(done.json()).toMatchObject({ valor_devolvido: 54.95, valor_retido: 0 });
  });

  it('the documents go with the PCD answers after the event; the decisions stay on record', async () => {
    const proofs = await t.app.db.select().from(priceRuleProofs);
    const bruno = proofs.find((p) => p.registrationId === ids[1])!;
    const january = proofs.find(
      (p) => p.fileName && p.registrationId !== null && p.registrationId !== ids[1],
    )!;
    // Sent for the third student refused by the cap: never taken by a registration.
    const unused = proofs.find((p) => p.fileName && p.registrationId === null)!;
    const fileOf = (name: string) => path.join(t.dataDir, 'comprovantes', name);
    expect(existsSync(fileOf(bruno.fileName!))).toBe(true);
    // Past the retention after this race (28 November), before January's race.
    t.clock = new Date('2027-01-05T12:00:00Z');
    await t.app.jobs.send('privacy.health-data', {});
    await untilJobsDone(t.app.db, 'privacy.health-data');
    const [after] = await t.app.db.select().from(priceRuleProofs).where(eq(priceRuleProofs.id, bruno.id));
    expect(after).toMatchObject({ fileName: null, status: 'recusado', reason: 'A carteira venceu em 2025.' });
    expect(existsSync(fileOf(bruno.fileName!))).toBe(false);
    expect(existsSync(fileOf(january.fileName!))).toBe(true);
    // A file lost from the disk (a disk lost without a backup, removed by hand) is a 404.
    const reviewer = await createStaffAndLogin(t.app, 'gerente');
    const url = `/api/painel/comprovantes/${january.id}/arquivo/`;
    expect((await request('GET', reviewer, url)).statusCode).toBe(200);
    rmSync(fileOf(january.fileName!));
    const lost = await request('GET', reviewer, url);
    expect(lost.statusCode).toBe(404);
    expect(lost.json().detail).toBe(
      'O arquivo deste comprovante não existe mais: peça outro ao participante.',
    );
    expect(existsSync(fileOf(unused.fileName!))).toBe(false);
  });
});
