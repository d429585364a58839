import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeReversa, startFakeReversa } from '../../test/mocks/fake-correios-reversa.ts';
import { createCorreiosProvider } from './correios.provider.ts';
import { parseReversaAnswer } from './correios-reversa.ts';
import { ShippingProviderError } from './shipping.provider.ts';

const CONTRACT = {
  user: 'passada-reversa',
  password: 'senha-do-contrato',
  administrativeCode: '08082650',
  serviceCode: '04677',
  postingCard: '0079999999',
};

const input = (returnId: number) => ({
  returnId,
  orderId: 77,
  sender: {
    name: 'Ana Compradora',
    cep: '01310-100',
    email: 'ana@example.com',
    phone: '(11) 98765-4321',
    address: {
      street: 'Av. Paulista',
      number: '1000',
      neighborhood: 'Bela Vista',
      city: 'São Paulo',
      state: 'SP',
    },
  },
  today: '2026-11-25' as const,
});

/** The Correios reverse-logistics client (docs/decisions/0040) against a strict local fake. */
describe('Correios logística reversa', () => {
  let fake: FakeReversa;
  const provider = (over: Partial<typeof CONTRACT & { url: string }> = {}) =>
    createCorreiosProvider({
      baseUrl: 'http://127.0.0.1:1',
      user: 'x',
      accessCode: 'y',
      postingCard: CONTRACT.postingCard,
      reversa: { url: fake.url, ...CONTRACT, ...over },
    });
  const errorOf = async (p: Promise<unknown>) => {
    try {
      await p;
    } catch (err) {
      return err as Error;
    }
    throw new Error('expected a failure');
  };

  beforeAll(async () => {
    fake = await startFakeReversa({ ...CONTRACT, validUntil: '25/12/2026' });
  });
  afterAll(() => fake.close());

  it('asks a postage authorisation (tipo A) with the buyer as sender and the shop as recipient', async () => {
    const auth = await provider().authorizeReturn(input(501));
    expect(auth).toMatchObject({ validUntil: '2026-12-25' });
    expect(auth.code).toMatch(/^\d{9}$/);
    const sent = fake.requests.at(-1)!;
    expect(sent).toMatchObject({
      codAdministrativo: CONTRACT.administrativeCode,
      codigo_servico: CONTRACT.serviceCode,
      cartao: CONTRACT.postingCard,
      destinatario: { cep: '60165121', cidade: 'Fortaleza', uf: 'CE' },
      coletas_solicitadas: {
        tipo: 'A',
        id_cliente: '501',
        remetente: {
          nome: 'Ana Compradora',
          cep: '01310100',
          ddd: '11',
          telefone: '987654321',
          numero: '1000',
        },
        obj_col: { item: '1', id: '501' },
      },
    });
  });

  it('turns each documented error into a provider error (the request then waits for staff)', async () => {
    const wrongPassword = await errorOf(provider({ password: 'errada' }).authorizeReturn(input(502)));
    expect(wrongPassword).toBeInstanceOf(ShippingProviderError);
    expect(wrongPassword.message).toMatch(/usuário e a senha/);

    const wrongContract = await errorOf(provider({ administrativeCode: '1' }).authorizeReturn(input(503)));
    expect(wrongContract.message).toMatch(/-1.*Código administrativo inválido/);

    // The same request id twice: the service refuses the item, nothing is issued twice.
    const again = await errorOf(provider().authorizeReturn(input(501)));
    expect(again.message).toMatch(/120.*já utilizada/);

    const noCep = await errorOf(
      provider().authorizeReturn({ ...input(504), sender: { ...input(504).sender, cep: '' } }),
    );
    expect(noCep.message).toMatch(/112.*Remetente incompleto/);

    const down = await errorOf(provider({ url: 'http://127.0.0.1:1/ws' }).authorizeReturn(input(506)));
    expect(down.message).toMatch(/indisponível/);
  });

  it('reads a SOAP fault, and refuses an answer without an authorisation number', async () => {
    const fault = await fetch(fake.url, {
      method: 'POST',
      headers: {
        'content-type': 'text/xml',
        authorization: `Basic ${Buffer.from(`${CONTRACT.user}:${CONTRACT.password}`).toString('base64')}`,
      },
      body: '<not-soap/>',
    });
    expect(fault.status).toBe(500);
    const faultError = await errorOf(
      Promise.resolve().then(async () => parseReversaAnswer(await fault.text(), '2026-11-25')),
    );
    expect(faultError.message).toMatch(/recusou: Unmarshalling Error/);
    const empty = await errorOf(
      Promise.resolve().then(() =>
        parseReversaAnswer(
          '<Envelope><Body><solicitarPostagemReversaResponse><solicitarPostagemReversa><cod_erro>0</cod_erro><resultado_solicitacao><codigo_erro>0</codigo_erro></resultado_solicitacao></solicitarPostagemReversa></solicitarPostagemReversaResponse></Body></Envelope>',
          '2026-11-25',
        ),
      ),
    );
    expect(empty.message).toMatch(/não informou o número/);
  });
});
