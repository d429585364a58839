import { isS10Code } from '@passada/core/s10';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { orderDeliveries } from '../../db/schema/orders.ts';
import { shippingLabels } from '../../db/schema/shipping.ts';
import { type MadeProduct, makeProduct } from '../../test/factories/catalog.ts';
import {
  type Buyer,
  createOrderPix,
  draftTotalCents,
  makeBuyer,
  orderDraft,
} from '../../test/factories/orders.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { simulatePixPaid } from '../../test/factories/payments.ts';
import {
  type FakeCorreiosPrePostagem,
  startFakeCorreiosPrePostagem,
} from '../../test/mocks/fake-correios-prepostagem.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { createCorreiosLabelProvider, readSroEvents } from './correios-labels.provider.ts';
import { splitStreet } from './label.provider.ts';

const CONTRACT = { user: '12345678000199', accessCode: 'codigo-de-acesso', postingCard: '0077123456' };
const NFE_KEY = '23261112345678000199550010000000011000000011';

describe('shipping labels with LABEL_PROVIDER=correios (pré-postagem, strict fake)', () => {
  let cw: FakeCorreiosPrePostagem;
  let t: TestApp;
  let staff: TestStaff;
  let buyer: Buyer;
  let shirt: MadeProduct;

  beforeAll(async () => {
    cw = await startFakeCorreiosPrePostagem({ ...CONTRACT, services: ['03298', '03220'] });
    t = await createTestApp({
      env: {
        LABEL_PROVIDER: 'correios',
        CORREIOS_API_URL: cw.url,
        CORREIOS_USER: CONTRACT.user,
        CORREIOS_ACCESS_CODE: CONTRACT.accessCode,
        CORREIOS_POSTING_CARD: CONTRACT.postingCard,
      },
    });
    staff = await createStaffAndLogin(t.app, 'financeiro');
    buyer = await makeBuyer(t.app);
    shirt = await makeProduct(t.database.db, {
      weightGrams: 180,
      dims: [30, 22, 3],
      stock: [{ color: 'Azul', size: 'G', quantity: 50 }],
    });
  });
  beforeEach(() => {
    cw.seen.length = 0;
  });
  afterAll(async () => {
    await t.close();
    await cw.close();
  });

  async function paidOrder(quantity = 1, frete: 'PAC' | 'SEDEX' = 'SEDEX') {
    const draft = orderDraft(buyer, [{ product: shirt, quantity }], { frete });
    const total = await draftTotalCents(t.app, buyer.zipCode, draft, [shirt]);
    const created = await createOrderPix(t.app, buyer.headers, draft, total);
    return (await simulatePixPaid(t.app, created.json().txid)).json().pedido_id as number;
  }
  const generate = async (id: number, chave_nfe?: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/painel/orders/labels/',
      headers: staff.headers,
      payload: { pedidos: [{ id, ...(chave_nfe ? { chave_nfe } : {}) }] },
    });
    expect(res.statusCode).toBe(200);
    return res.json().resultados[0];
  };
  const calls = (path: string) => cw.seen.filter((s) => s.path.split('?')[0] === path);
  const labelOf = async (id: number) =>
    (await t.database.db.select().from(shippingLabels).where(eq(shippingLabels.orderId, id)))[0];
  const read = async (id: number) =>
    (await t.app.inject({ method: 'GET', url: `/api/painel/orders/${id}/`, headers: staff.headers })).json();

  it('makes the pré-postagem with the NF-e key and the contract’s service, and the object code is the tracking code', async () => {
    const id = await paidOrder(2);
    const result = await generate(id, NFE_KEY);
    expect(result).toMatchObject({ pedido: id, situacao: 'comprada', erro: null });
    expect(isS10Code(result.codigo_rastreio)).toBe(true);
    const [made] = calls('/prepostagem/v1/prepostagens');
    expect(made!.body).toMatchObject({
      idCorreios: CONTRACT.user,
      numeroCartaoPostagem: CONTRACT.postingCard,
      codigoServico: '03220',
      chaveNFe: NFE_KEY,
      // The products' value, insured by the SEDEX's "valor declarado".
      listaServicoAdicional: [
        { codigoServicoAdicional: '019', valorDeclarado: ((shirt.priceCents * 2) / 100).toFixed(2) },
      ],
      pesoInformado: '360',
      codigoFormatoObjetoInformado: '2',
      comprimentoInformado: '30',
      larguraInformada: '22',
      alturaInformada: '6',
      cienteObjetoNaoProibido: 1,
      remetente: {
        cpfCnpj: expect.stringMatching(/^[0-9A-Z]{14}$/),
        endereco: { cep: '60165121', logradouro: 'Av. Beira Mar', numero: '3000', uf: 'CE' },
      },
      destinatario: { endereco: { cep: buyer.zipCode.replace(/\D/g, '') } },
    });
    // One token for every call of the run.
    expect(calls('/token/v1/autentica/cartaopostagem').length).toBeLessThanOrEqual(1);
    const label = (await labelOf(id))!;
    expect(label).toMatchObject({ provider: 'correios', priceCents: 0 });
    expect(label.providerRef).toBe(`${[...cw.prepostagens.keys()].at(-1)}:${result.codigo_rastreio}`);
    expect((await read(id)).codigo_rastreio).toBe(result.codigo_rastreio);
  });

  it('a PAC order uses the contract’s PAC code', async () => {
    const id = await paidOrder(1, 'PAC');
    expect(await generate(id, NFE_KEY)).toMatchObject({ situacao: 'comprada' });
    const [made] = calls('/prepostagem/v1/prepostagens');
    expect(made!.body.codigoServico).toBe('03298');
    expect(made!.body.listaServicoAdicional).toEqual([
      { codigoServicoAdicional: '064', valorDeclarado: (shirt.priceCents / 100).toFixed(2) },
    ]);
  });

  it('the contract refuses a declared value with another product’s code or without centavos', async () => {
    const request = (await t.database.db.select().from(shippingLabels))[0]!.request;
    const provider = createCorreiosLabelProvider({
      baseUrl: cw.url,
      ...CONTRACT,
      services: { PAC: '03298', SEDEX: '03220' },
    });
    await provider.create({ ...request, service: 'PAC', nfeKey: NFE_KEY });
    const body = calls('/prepostagem/v1/prepostagens').at(-1)!.body;
    const token = (await (
      await fetch(`${cw.url}/token/v1/autentica/cartaopostagem`, {
        method: 'POST',
        headers: {
          accept: 'application/json',
          'content-type': 'application/json',
          authorization: `Basic ${Buffer.from(`${CONTRACT.user}:${CONTRACT.accessCode}`).toString('base64')}`,
        },
        body: JSON.stringify({ numero: CONTRACT.postingCard }),
      })
    ).json()) as { token: string };
    const post = async (extra: unknown) => {
      const res = await fetch(`${cw.url}/prepostagem/v1/prepostagens`, {
        method: 'POST',
        headers: {
          accept: 'application/json',
          'content-type': 'application/json',
          authorization: `Bearer ${token.token}`,
        },
        body: JSON.stringify({ ...body, listaServicoAdicional: [extra] }),
      });
      return { status: res.status, msgs: ((await res.json()) as { msgs?: string[] }).msgs };
    };
    expect(await post({ codigoServicoAdicional: '019', valorDeclarado: '129.90' })).toEqual({
      status: 400,
      msgs: ['Serviço adicional 019 não se aplica ao serviço 03298.'],
    });
    expect(await post({ codigoServicoAdicional: '064', valorDeclarado: 129.9 })).toEqual({
      status: 400,
      msgs: ['valorDeclarado inválido: informe o valor em reais, com duas casas decimais.'],
    });
  });

  it('asks for the NF-e key before calling the Correios', async () => {
    const id = await paidOrder();
    expect(await generate(id)).toMatchObject({
      situacao: 'erro',
      erro: 'Os Correios exigem a chave da NF-e autorizada na pré-postagem de uma venda.',
    });
    expect(cw.seen).toHaveLength(0);
  });

  it('when the Correios are down says so, and the next try makes one pré-postagem', async () => {
    const id = await paidOrder();
    const before = cw.prepostagens.size;
    cw.goDown(1);
    expect(await generate(id, NFE_KEY)).toMatchObject({
      situacao: 'erro',
      erro: 'Correios fora do ar; tente de novo em instantes.',
    });
    expect(await generate(id, NFE_KEY)).toMatchObject({ situacao: 'comprada' });
    expect(cw.prepostagens.size).toBe(before + 1);
    // A second "Gerar etiquetas" answers the label made, without a new pré-postagem.
    expect(await generate(id, NFE_KEY)).toMatchObject({ situacao: 'comprada' });
    expect(cw.prepostagens.size).toBe(before + 1);
  });

  it('prints the Correios’ own label PDF for several orders at once, waiting while it is made', async () => {
    const a = await paidOrder();
    const b = await paidOrder();
    const codeA = (await generate(a, NFE_KEY)).codigo_rastreio;
    const codeB = (await generate(b, NFE_KEY)).codigo_rastreio;
    cw.renderSlowly(1);
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/painel/orders/labels.pdf?pedidos=${a},${b}`,
      headers: staff.headers,
    });
    cw.renderSlowly(0);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/pdf/);
    const pdf = res.rawPayload.toString('latin1');
    expect(pdf.startsWith('%PDF-')).toBe(true);
    expect(pdf).toContain(`Rotulo ${codeA} ${codeB}`);
    const [asked] = calls('/prepostagem/v1/prepostagens/rotulo/assincrono/pdf');
    const ids = [(await labelOf(a))!, (await labelOf(b))!].map((l) => l.providerRef!.split(':')[0]);
    expect(asked!.body).toMatchObject({ idsPrePostagem: ids, tipoRotulo: 'P', formatoRotulo: 'ET' });
    expect(calls(`/prepostagem/v1/prepostagens/rotulo/download/assincrono/${'rec-1'}`)).toHaveLength(2);
  });

  it('reads the SRO: posted ships the order, out for delivery moves the label, delivered closes it with the day', async () => {
    const id = await paidOrder();
    const code = (await generate(id, NFE_KEY)).codigo_rastreio as string;
    await t.app.labels.trackAll();
    expect((await read(id)).status).toBe('pago');
    cw.scan(code, {
      codigo: 'PO',
      tipo: '01',
      dtHrCriado: '2026-11-24T10:00:00',
      descricao: 'Objeto postado',
    });
    cw.scan(code, {
      codigo: 'RO',
      tipo: '01',
      dtHrCriado: '2026-11-24T18:00:00',
      descricao: 'Objeto em transferência - por favor aguarde',
    });
    await t.app.labels.trackAll();
    expect((await read(id)).status).toBe('enviado');
    cw.scan(code, {
      codigo: 'OEC',
      tipo: '01',
      dtHrCriado: '2026-11-26T08:00:00',
      descricao: 'Objeto saiu para entrega ao destinatário',
    });
    await t.app.labels.trackAll();
    expect((await labelOf(id))!.trackingState).toBe('saiu_para_entrega');
    cw.scan(code, {
      codigo: 'BDE',
      tipo: '01',
      dtHrCriado: '2026-11-26T23:30:00',
      descricao: 'Objeto entregue ao destinatário',
    });
    await t.app.labels.trackAll();
    expect((await read(id)).status).toBe('entregue');
    const [delivery] = await t.database.db
      .select()
      .from(orderDeliveries)
      .where(eq(orderDeliveries.orderId, id));
    expect(delivery).toMatchObject({ deliveredOn: '2026-11-26', source: 'rastreio' });
    const sro = cw.seen.filter((s) => s.path.startsWith('/srorastro/v1/objetos?'));
    expect(sro.at(-1)!.path).toContain(`codigosObjetos=${code}`);
    expect(sro.at(-1)!.path).toContain('resultado=T');
  });

  it('renews a token the Correios stopped taking, once, and reports wrong credentials as such', async () => {
    const id = await paidOrder();
    const request = (await labelOf((await t.database.db.select().from(shippingLabels))[0]!.orderId))!.request;
    const provider = createCorreiosLabelProvider({
      baseUrl: cw.url,
      ...CONTRACT,
      services: { PAC: '03298', SEDEX: '03220' },
    });
    await provider.create({ ...request, orderId: id });
    cw.expireTokens();
    await expect(provider.create({ ...request, orderId: id })).resolves.toMatchObject({
      ref: expect.stringMatching(/^PR.+:[A-Z]{2}\d{9}BR$/),
    });
    expect(calls('/token/v1/autentica/cartaopostagem')).toHaveLength(2);
    const wrong = createCorreiosLabelProvider({
      baseUrl: cw.url,
      ...CONTRACT,
      accessCode: 'outro',
      services: { PAC: '03298', SEDEX: '03220' },
    });
    await expect(wrong.create({ ...request, orderId: id })).rejects.toMatchObject({
      code: 'nao_autorizado',
      reason:
        'Correios recusou as credenciais do contrato (usuário, código de acesso ou cartão de postagem).',
    });
  });

  it('shows the Correios’ own refusal in Portuguese (a service the contract does not have)', async () => {
    const request = (await t.database.db.select().from(shippingLabels))[0]!.request;
    const other = createCorreiosLabelProvider({
      baseUrl: cw.url,
      ...CONTRACT,
      services: { PAC: '03298', SEDEX: '04014' },
    });
    await expect(other.create({ ...request, service: 'SEDEX', nfeKey: NFE_KEY })).rejects.toMatchObject({
      code: 'invalido',
      reason: 'Correios recusou a pré-postagem: Serviço 04014 não consta do contrato.',
    });
  });

  describe('cancelled with its order (DELETE /prepostagem/v1/prepostagens/{id})', () => {
    const cancel = async (id: number) => {
      const admin = await createStaffAndLogin(t.app, 'admin');
      return t.app.inject({
        method: 'POST',
        url: `/api/painel/orders/${id}/status/`,
        headers: admin.headers,
        payload: { status: 'cancelado', motivo: 'Cliente desistiu' },
      });
    };
    const view = async (id: number) =>
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/painel/orders/${id}/etiqueta/`,
          headers: staff.headers,
        })
      ).json();

    it('cancels the pré-postagem of an order cancelled before posting, once, and it is printed no more', async () => {
      const id = await paidOrder();
      await generate(id, NFE_KEY);
      const prepostagem = (await labelOf(id))!.providerRef!.split(':')[0]!;
      expect((await cancel(id)).statusCode).toBe(200);
      await expect.poll(async () => (await view(id)).situacao, { timeout: 45_000 }).toBe('cancelada');
      expect(cw.seen.filter((s) => s.method === 'DELETE').map((s) => s.path)).toEqual([
        `/prepostagem/v1/prepostagens/${prepostagem}`,
      ]);
      expect(cw.prepostagens.get(prepostagem)?.cancelada).toBe(true);
      // Asked again after a lost answer: the Correios say it is cancelled already, and so it stays.
      await t.database.db
        .update(shippingLabels)
        .set({ status: 'comprada' })
        .where(eq(shippingLabels.orderId, id));
      await t.app.labels.cancelForOrder(id);
      expect(cw.seen.filter((s) => s.method === 'DELETE')).toHaveLength(2);
      expect(await labelOf(id)).toMatchObject({ status: 'cancelada', cancelRefusal: null });
      // The Correios print no rótulo for it any more.
      const row = (await labelOf(id))!;
      const provider = createCorreiosLabelProvider({
        baseUrl: cw.url,
        ...CONTRACT,
        services: { PAC: '03298', SEDEX: '03220' },
      });
      await expect(
        provider.print([
          {
            orderId: id,
            providerRef: row.providerRef!,
            trackingCode: row.trackingCode!,
            purchasedAt: new Date(),
            request: row.request,
          },
        ]),
      ).rejects.toMatchObject({
        code: 'invalido',
        reason: `Correios recusou o rótulo: Pré-postagem não encontrada ou cancelada: ${prepostagem}.`,
      });
    });

    it('a parcel the Correios received is not cancelled: the order is, and staff see why', async () => {
      const id = await paidOrder();
      const { codigo_rastreio: code } = await generate(id, NFE_KEY);
      cw.scan(code, {
        codigo: 'PO',
        tipo: '01',
        dtHrCriado: '2026-11-24T10:00:00',
        descricao: 'Objeto postado',
      });
      expect((await cancel(id)).statusCode).toBe(200);
      await expect
        .poll(async () => (await view(id)).cancelamento_recusado, { timeout: 45_000 })
        .toBe(
          `Correios recusou o cancelamento: Objeto ${code} já postado: a pré-postagem não pode ser cancelada.`,
        );
      expect((await view(id)).situacao).toBe('comprada');
      expect((await read(id)).status).toBe('cancelado');
    });

    it('asks again later when the Correios are down at the cancellation', async () => {
      const id = await paidOrder();
      await generate(id, NFE_KEY);
      cw.goDown(1);
      await expect(t.app.labels.cancelForOrder(id)).rejects.toMatchObject({ code: 'indisponivel' });
      expect((await labelOf(id))?.status).toBe('comprada');
      await t.app.labels.cancelForOrder(id);
      expect((await labelOf(id))?.status).toBe('cancelada');
    });
  });
});

describe('Correios pré-postagem helpers', () => {
  it('splits the number and complement off a street kept in one line', () => {
    expect(splitStreet({ street: 'Av. Beira Mar, 3000, loja 12' })).toEqual({
      logradouro: 'Av. Beira Mar',
      numero: '3000',
      complemento: 'loja 12',
    });
    expect(splitStreet({ street: 'Rua das Flores', number: '12', complement: 'apto 3' })).toEqual({
      logradouro: 'Rua das Flores',
      numero: '12',
      complemento: 'apto 3',
    });
    expect(splitStreet({ street: 'Estrada do Sítio' })).toEqual({
      logradouro: 'Estrada do Sítio',
      numero: 'S/N',
    });
  });

  it('reads the SRO events in any order; a delivery attempt that failed is still "postado"', () => {
    expect(readSroEvents([])).toEqual({ state: 'aguardando_postagem', at: null });
    const posted = { codigo: 'PO', tipo: '01', dtHrCriado: '2026-11-24T10:00:00' };
    const failed = { codigo: 'BDE', tipo: '20', dtHrCriado: '2026-11-26T10:00:00' };
    expect(readSroEvents([failed, posted])).toEqual({
      state: 'postado',
      at: new Date('2026-11-24T13:00:00Z'),
    });
    expect(readSroEvents([posted, { codigo: 'BDI', tipo: '01', dtHrCriado: '2026-11-27T09:00:00' }])).toEqual(
      {
        state: 'entregue',
        at: new Date('2026-11-27T12:00:00Z'),
      },
    );
  });
});
