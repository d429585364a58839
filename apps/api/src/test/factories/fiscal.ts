import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import { fiscalDocuments } from '../../db/schema/index.ts';
import type { MadeProduct } from './catalog.ts';
import { type Buyer, createOrderPix, draftTotalCents, orderDraft } from './orders.ts';
import { cardToken, simulatePixPaid } from './payments.ts';

export const BUYER_CPF = '40364478829';

/** The settings form as staff fill it: the demo company in Fortaleza, Simples Nacional. */
export function fiscalForm(overrides: Record<string, unknown> = {}) {
  return {
    cnpj: '12.ABC.345/01DE-35',
    inscricao_estadual: '06.123456-7',
    inscricao_municipal: '1234567',
    razao_social: 'Passada Artigos Esportivos Ltda.',
    regime: 'simples_nacional',
    logradouro: 'Av. Beira Mar',
    numero: '3000',
    bairro: 'Meireles',
    municipio: 'Fortaleza',
    codigo_municipio: '2304400',
    uf: 'CE',
    cep: '60165-121',
    codigo_servico_nfse: '12.11',
    codigo_tributacao_nacional: '12.11.01',
    serie_nfe: 1,
    regras: [
      { destino: 'interna', cfop: '5102', situacao_icms: '102', situacao_pis: '49', situacao_cofins: '49' },
      {
        destino: 'interestadual',
        cfop: '6108',
        situacao_icms: '102',
        situacao_pis: '49',
        situacao_cofins: '49',
      },
    ],
    ...overrides,
  };
}

/** Saves the settings through the back office (staff with `catalogo`); fails the test when refused. */
export async function saveFiscalSettings(app: FastifyInstance, headers: Record<string, string>) {
  const current = await app.inject({ method: 'GET', url: '/api/painel/fiscal/', headers });
  const res = await app.inject({
    method: 'PUT',
    url: '/api/painel/fiscal/',
    headers,
    payload: { ...fiscalForm(), versao: current.json().versao },
  });
  if (res.statusCode !== 200) throw new Error(`fiscal settings: ${res.statusCode} ${res.body}`);
  return res.json();
}

export async function saveProductFiscal(
  app: FastifyInstance,
  headers: Record<string, string>,
  productId: number,
  ncm = '6109.10.00',
) {
  const res = await app.inject({
    method: 'PUT',
    url: `/api/painel/products/${productId}/fiscal/`,
    headers,
    payload: { ncm, origem: 0 },
  });
  if (res.statusCode !== 200) throw new Error(`product fiscal: ${res.statusCode} ${res.body}`);
}

/** A paid order (card, approved at once, the buyer's CPF given): its id. */
export async function paidCardOrder(
  app: FastifyInstance,
  buyer: Buyer,
  product: MadeProduct,
  quantity = 1,
  /** The "CPF na nota", when the buyer typed one besides the card holder's. */
  cpfNaNota?: string,
  /** Instalments: above the interest-free ones the provider adds its interest to the total. */
  installments = 1,
): Promise<number> {
  const draft = { ...orderDraft(buyer, [{ product, quantity }]), ...(cpfNaNota ? { cpf: cpfNaNota } : {}) };
  const total = await draftTotalCents(app, buyer.zipCode, draft, [product]);
  const res = await app.inject({
    method: 'POST',
    url: '/api/pagar-cartao/',
    headers: { ...buyer.headers, 'idempotency-key': randomUUID() },
    payload: {
      birth: '1988-03-09',
      payment_token: await cardToken(app, {
        number: '4111111111111111',
        holderName: 'Maria Silva',
        holderDocument: BUYER_CPF,
      }),
      name: 'Maria Silva',
      cpf: BUYER_CPF,
      email: buyer.email,
      total: total / 100,
      installments,
      finalidade: 'pedido',
      pedido: { ...draft, metodo_pagamento: 'cartao' },
    },
  });
  if (res.statusCode !== 200 || !res.json().pedido_id)
    throw new Error(`card order: ${res.statusCode} ${res.body}`);
  return res.json().pedido_id as number;
}

/** A paid Pix order with the "CPF na nota" the checkout asks for (none when `cpf` is null): its id. */
export async function paidPixOrder(
  app: FastifyInstance,
  buyer: Buyer,
  product: MadeProduct,
  cpf: string | null = BUYER_CPF,
): Promise<number> {
  const draft = { ...orderDraft(buyer, [{ product }]), ...(cpf ? { cpf } : {}) };
  const total = await draftTotalCents(app, buyer.zipCode, draft, [product]);
  const pix = await createOrderPix(app, buyer.headers, draft, total);
  if (pix.statusCode !== 201) throw new Error(`pix: ${pix.statusCode} ${pix.body}`);
  const paid = await simulatePixPaid(app, pix.json().txid);
  if (!paid.json().pedido_id) throw new Error(`pix paid: ${paid.statusCode} ${paid.body}`);
  return paid.json().pedido_id as number;
}

export async function documentsOf(db: Db, orderId: number) {
  return db.select().from(fiscalDocuments).where(eq(fiscalDocuments.orderId, orderId));
}

/** Staff save the shop's tax regime on the fiscal screen, with the version they read. */
export async function saveRegime(app: FastifyInstance, headers: Record<string, string>, regime: string) {
  const current = await app.inject({ method: 'GET', url: '/api/painel/fiscal/', headers });
  const res = await app.inject({
    method: 'PUT',
    url: '/api/painel/fiscal/',
    headers,
    payload: { ...fiscalForm({ regime }), versao: current.json().versao },
  });
  if (res.statusCode !== 200) throw new Error(`regime não salvo: ${res.statusCode} ${res.body}`);
}
