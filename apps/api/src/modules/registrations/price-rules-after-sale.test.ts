import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { PCD_PROOF_CONSENT } from '@passada/core/contracts/consents';
import { PainelPriceRuleSchema, ProofReviewSchema } from '@passada/core/contracts/price-rules';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  priceRuleProofs,
  registrationCategories,
  registrationChanges,
  registrations,
} from '../../db/schema/index.ts';
import { waitForMailContaining } from '../../test/factories/accounts.ts';
import type { MadeEvent } from '../../test/factories/events.ts';
import { type Buyer, makeBuyer } from '../../test/factories/orders.ts';
import { createStaffAndLogin, picture, type TestStaff, uploadProof } from '../../test/factories/painel.ts';
import { simulatePixPaid } from '../../test/factories/payments.ts';
import {
  APPROVED_CARD,
  cpfFrom,
  participant,
  registrationCard,
  requestAs,
} from '../../test/factories/registrations.ts';
import { TEAMS_START, teamsRace } from '../../test/factories/teams.ts';
import { useClockedTestApp } from '../../test/test-app.ts';

/**
 * A special price after the sale (docs/decisions/0068, later): a refused proof paid up to the lot's
 * price, a change of distance that leaves the rule and says so, and the review time that, once passed,
 * lets the special price stand. Through the HTTP layer.
 */
describe('price rules after the sale: the difference paid, a change of distance, the review time', () => {
  const t = useClockedTestApp(TEAMS_START);
  const request = requestAs(() => t.app);
  let admin: TestStaff;
  let buyer: Buyer;
  let race: MadeEvent;
  let student: number;
  let cpfSeq = 760_000_000;
  const five = () => race.days[0]!.categories[0]!.id;
  const ten = () => race.days[0]!.categories[1]!.id;
  const runners: number[] = [];

  const usedPlaces = async () =>
    PainelPriceRuleSchema.array()
      .parse((await request('GET', admin, `/api/painel/events/${race.id}/regras-preco/`)).json())
      .find((r) => r.id === student)!.usadas;
  const proofOf = async (id: number) =>
    (await t.app.db.select().from(priceRuleProofs).where(eq(priceRuleProofs.registrationId, id)))[0];
  const racesOf = (id: number) =>
    t.app.db.select().from(registrationCategories).where(eq(registrationCategories.registrationId, id));
  const pay = (draft: unknown, total: number) =>
    registrationCard(t.app, { number: APPROVED_CARD, draft, total, user: buyer, key: randomUUID() });

  beforeAll(async () => {
    admin = await createStaffAndLogin(t.app, 'admin');
    buyer = await makeBuyer(t.app);
    race = await teamsRace(t.app, 'Corrida do Comprovante');
    const made = await request('POST', admin, `/api/painel/events/${race.id}/regras-preco/`, {
      categoria: ten(),
      publico: 'estudante',
      nome: 'Estudante',
      desconto: 'meia',
    });
    student = (made.json() as Array<{ id: number }>)[0]!.id;
    for (const name of ['Ana Recusada', 'Bruno Troca', 'Carla Prazo']) {
      const sent = await uploadProof(t.app, buyer, await picture('jpeg', 900), 'cie.jpg', 'image/jpeg');
      const cpf = cpfFrom(cpfSeq++);
      const paid = await pay(
        participant(race, [ten()], {
          cpf,
          email: `prova.${cpf}@example.com`,
          nome_completo: name,
          regra_preco: student,
          comprovante: sent.json().comprovante,
        }),
        54.95,
      );
      expect(paid.statusCode).toBe(200);
      runners.push(paid.json().inscricao_id as number);
    }
    expect(await usedPlaces()).toBe(3);
  });

  it('a refused proof: the runner pays the difference to the lot’s price and keeps the place, the rule gets its place back', async () => {
    const ana = runners[0]!;
    const quoteUrl = `/api/inscricoes/${ana}/diferenca-preco/`;
    // Nothing to pay while the proof waits.
    expect((await request('GET', buyer, quoteUrl)).json()).toMatchObject({ permitido: false, a_pagar: 0 });
    expect((await pay({ diferenca_preco: { inscricao: ana } }, 54.95)).json().code).toBe(
      'diferenca_indisponivel',
    );
    const [pending] = ProofReviewSchema.array()
      .parse((await request('GET', admin, `/api/painel/comprovantes/?evento=${race.id}`)).json())
      .filter((p) => p.inscricao === ana);
    const refused = await request('POST', admin, `/api/painel/comprovantes/${pending!.id}/decisao/`, {
      decisao: 'recusar',
      motivo: 'Documento ilegível.',
    });
    expect(refused.statusCode).toBe(200);
    const file = path.join(t.dataDir, 'comprovantes', (await proofOf(ana))!.fileName!);

    // Another account sees nothing of it.
    const stranger = await makeBuyer(t.app);
    expect((await request('GET', stranger, quoteUrl)).statusCode).toBe(404);
    expect(
      (
        await registrationCard(t.app, {
          number: APPROVED_CARD,
          draft: { diferenca_preco: { inscricao: ana } },
          total: 54.95,
          user: stranger,
          key: randomUUID(),
        })
      ).statusCode,
    ).toBe(404);

    // The account's list flags only the refused one, so the page asks the price of that one alone.
    const flagged = async () =>
      (
        (await request('GET', buyer, '/api/inscricoes/')).json() as Array<{
          id: number;
          comprovante_recusado?: true;
        }>
      )
        .filter((r) => r.comprovante_recusado)
        .map((r) => r.id);
    expect(await flagged()).toEqual([ana]);
    const quote = await request('GET', buyer, quoteUrl);
    expect(quote.json()).toEqual({
      permitido: true,
      motivo: null,
      regra: 'Estudante',
      motivo_recusa: 'Documento ilegível.',
      a_pagar: 109.9 - 54.95,
    });
    // The server prices it: a smaller total is refused with the right one.
    const short = await pay({ diferenca_preco: { inscricao: ana } }, 10);
    expect(short.statusCode).toBe(409);
    expect(short.json()).toMatchObject({ code: 'total_divergente', total_correto: 54.95 });
    const paid = await pay({ diferenca_preco: { inscricao: ana } }, 54.95);
    expect(paid.statusCode).toBe(200);
    expect(paid.json()).toMatchObject({ inscricao_id: ana });

    expect((await racesOf(ana))[0]).toMatchObject({ priceRuleId: null, priceCents: 5_495 });
    expect(await usedPlaces()).toBe(2);
    expect(await proofOf(ana)).toBeUndefined();
    await expect.poll(() => existsSync(file), { timeout: 15_000 }).toBe(false);
    const [history] = await t.app.db
      .select()
      .from(registrationChanges)
      .where(eq(registrationChanges.registrationId, ana));
    expect(history).toMatchObject({ kind: 'diferenca_preco', feeCents: 5_495, actor: 'comprador' });
    const mail = await waitForMailContaining(t.dataDir, 'A diferença do preço especial (Estudante)');
    expect(mail).toContain(`inscrição nº ${ana}`);

    expect(await flagged()).toEqual([]);
    // Settled: nothing more to pay, and a second payment is refused before any charge.
    expect((await request('GET', buyer, quoteUrl)).json()).toMatchObject({ permitido: false });
    expect((await pay({ diferenca_preco: { inscricao: ana } }, 54.95)).json().code).toBe(
      'diferenca_indisponivel',
    );
    // The runner's card shows what was paid in all; a cancellation (within the 7 days of withdrawal)
    // returns both charges, never more.
    const cancel = await request('GET', buyer, `/api/inscricoes/${ana}/cancelamento/`);
    expect(cancel.json()).toMatchObject({ permitido: true, valor_pago: 109.9, valor_devolvido: 109.9 });
    // The report counts the difference as after-sale money of the event.
    const report = (await request('GET', admin, `/api/painel/relatorios/eventos/${race.id}/`)).json();
    expect(report.pos_venda).toBe(54.95);
  });

  it('a change of distance of a half-price race says the special price stays behind, counts from what was paid, and frees the rule’s place', async () => {
    const bruno = runners[1]!;
    const quote = await request(
      'GET',
      buyer,
      `/api/inscricoes/${bruno}/troca-distancia/?de=${ten()}&para=${five()}`,
    );
    // The 5 km's lot is R$ 89,90; the 10 km was paid R$ 54,95 (not its lot's R$ 109,90).
    expect(quote.json()).toMatchObject({
      permitido: true,
      diferenca: 34.95,
      a_pagar: 34.95,
      a_devolver: 0,
      aviso: expect.stringContaining('O preço especial vale só na distância em que foi concedido'),
    });
    const paid = await pay({ troca_distancia: { inscricao: bruno, de: ten(), para: five() } }, 34.95);
    expect(paid.statusCode).toBe(200);
    expect(await racesOf(bruno)).toEqual([
      expect.objectContaining({ categoryId: five(), priceRuleId: null, priceCents: 8_990 }),
    ]);
    expect(await usedPlaces()).toBe(1);
    expect(await proofOf(bruno)).toBeUndefined();
    // Without a special price, the quote says nothing of one.
    const back = await request(
      'GET',
      buyer,
      `/api/inscricoes/${bruno}/troca-distancia/?de=${five()}&para=${ten()}`,
    );
    expect(back.json().aviso).toBeUndefined();
    expect(back.json().diferenca).toBe(20);
  });

  it('an account erased (LGPD) takes its documents with it: the sent one and its registration’s; the decision rows stay', async () => {
    const runner = await makeBuyer(t.app);
    const send = async () => {
      return (await uploadProof(t.app, runner, await picture('png', 700), 'laudo.png', 'image/png')).json()
        .comprovante as string;
    };
    const [used, loose] = [await send(), await send()];
    const cpf = cpfFrom(cpfSeq++);
    const paid = await registrationCard(t.app, {
      number: APPROVED_CARD,
      draft: participant(race, [ten()], {
        cpf,
        email: `apagar.${cpf}@example.com`,
        regra_preco: student,
        comprovante: used,
      }),
      total: 54.95,
      user: runner,
      key: randomUUID(),
    });
    expect(paid.statusCode).toBe(200);
    const id = paid.json().inscricao_id as number;
    const rows = await t.app.db.select().from(priceRuleProofs).where(eq(priceRuleProofs.userId, runner.id));
    const files = rows.map((r) => path.join(t.dataDir, 'comprovantes', r.fileName!));
    expect(rows.map((r) => r.token).sort()).toEqual([used, loose].sort());
    expect(files.every((f) => existsSync(f))).toBe(true);

    const erased = await t.app.inject({
      method: 'DELETE',
      url: '/api/users/profile/',
      headers: runner.headers,
      payload: { password: runner.password },
    });
    expect(erased.statusCode).toBe(204);
    for (const file of files) await expect.poll(() => existsSync(file), { timeout: 15_000 }).toBe(false);
    const after = await t.app.db.select().from(priceRuleProofs).where(eq(priceRuleProofs.token, used));
    // The registration (a sales record) keeps its pending review, without the document.
    expect(after[0]).toMatchObject({ registrationId: id, status: 'pendente', fileName: null });
  });

  it('a PCD document is sent only with its own consent (health data), recorded with the proof', async () => {
    const made = await request('POST', admin, `/api/painel/events/${race.id}/regras-preco/`, {
      categoria: five(),
      publico: 'pcd',
      nome: 'Pessoa com deficiência',
      desconto: 'meia',
    });
    const pcd = (made.json() as Array<{ id: number; publico: string }>).find((r) => r.publico === 'pcd')!.id;
    const proof = (
      await uploadProof(t.app, buyer, await picture('jpeg', 800), 'laudo.jpg', 'image/jpeg')
    ).json().comprovante as string;
    const cpf = cpfFrom(cpfSeq++);
    const draft = (consent: boolean) =>
      participant(race, [five()], {
        cpf,
        email: `pcd.${cpf}@example.com`,
        regra_preco: pcd,
        comprovante: proof,
        comprovante_consentimento: consent,
      });
    const without = await pay(draft(false), 44.95);
    expect(without.statusCode).toBe(400);
    expect(without.json()).toMatchObject({
      code: 'consentimento_ausente',
      errors: { comprovante_consentimento: expect.stringContaining('autorize') },
    });
    const paid = await pay(draft(true), 44.95);
    expect(paid.statusCode).toBe(200);
    expect(await proofOf(paid.json().inscricao_id as number)).toMatchObject({
      consentVersion: PCD_PROOF_CONSENT.version,
      consentAt: t.clock,
      status: 'pendente',
    });
  });

  it('a special price in the cart: the price asked with the rule, the cart paid with a proof beside a plain runner', async () => {
    const priced = await request(
      'GET',
      null,
      `/api/events/${race.id}/preco/?categorias=${ten()}&regra=${student}`,
    );
    expect(priced.json()).toMatchObject({ total: 54.95, meia_entrada: false });
    expect(
      (
        await request('GET', null, `/api/events/${race.id}/preco/?categorias=${five()}&regra=${student}`)
      ).json().code,
    ).toBe('regra_preco_invalida');
    const proof = (
      await uploadProof(t.app, buyer, await picture('jpeg', 700), 'cie.jpg', 'image/jpeg')
    ).json().comprovante as string;
    const person = (name: string, fields: Record<string, unknown>) => {
      const cpf = cpfFrom(cpfSeq++);
      return participant(race, [ten()], {
        cpf,
        email: `carrinho.${cpf}@example.com`,
        nome_completo: name,
        ...fields,
      });
    };
    const cart = {
      metodo_pagamento: 'pix',
      inscricoes: [
        person('Duda Estudante', { regra_preco: student, comprovante: proof }),
        person('Enzo Normal', {}),
      ],
    };
    const pix = (total: number) =>
      request('POST', buyer, '/api/pagar-pix/', { total, finalidade: 'pedido', pedido: cart });
    const wrong = await pix(219.8);
    expect(wrong.statusCode).toBe(409);
    expect(wrong.json()).toMatchObject({ code: 'total_divergente', total_correto: 164.85 });
    const made = await pix(164.85);
    expect(made.statusCode).toBe(201);
    const orderId = (await simulatePixPaid(t.app, made.json().txid)).json().pedido_id as number;
    const rows = await t.app.db.select().from(registrations).where(eq(registrations.orderId, orderId));
    const duda = rows.find((r) => r.fullName === 'Duda Estudante')!;
    expect(await racesOf(duda.id)).toEqual([
      expect.objectContaining({ priceRuleId: student, priceCents: 5_495 }),
    ]);
    expect(await proofOf(duda.id)).toMatchObject({ token: proof, status: 'pendente' });
    const enzo = rows.find((r) => r.fullName === 'Enzo Normal')!;
    expect(await racesOf(enzo.id)).toEqual([
      expect.objectContaining({ priceRuleId: null, priceCents: 10_990 }),
    ]);
  });

  it('past the review time with no decision the special price stands: a refusal is refused, an approval still goes', async () => {
    const carla = runners[2]!;
    const proof = (await proofOf(carla))!;
    t.clock = new Date(proof.dueAt!.getTime() + 60_000);
    const reviewer = await createStaffAndLogin(t.app, 'gerente');
    const decide = (body: object) =>
      request('POST', reviewer, `/api/painel/comprovantes/${proof.id}/decisao/`, body);
    const late = await decide({ decisao: 'recusar', motivo: 'Fora do prazo.' });
    expect(late.statusCode).toBe(409);
    expect(late.json().code).toBe('prazo_encerrado');
    expect((await proofOf(carla))!.status).toBe('pendente');
    expect((await decide({ decisao: 'aprovar' })).json().situacao).toBe('aprovado');
  });
});
