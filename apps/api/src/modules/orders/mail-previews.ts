import type { Order } from '@passada/core/contracts/orders';
import type { OrderReturn } from '@passada/core/contracts/returns';
import type { MailPreview } from '../../providers/mail/index.ts';
import { orderAdditionOfferMail, orderConfirmationMail, orderStatusMail } from './order-mail.ts';
import { returnUpdateMail } from './return-mail.ts';

/** A demo order of two lines, shipped by PAC: no real customer's data (also the e-mail layout's test order). */
export const demoOrder: Order = {
  id: 1042,
  items: [
    {
      product: 1,
      product_image: '/api/media/products/camiseta.webp',
      product_name: 'Camiseta Brisa Dry',
      product_price: 99.9,
      quantity: 2,
      product_size: 'M',
      product_color: 'Preto',
    },
    {
      product: 2,
      product_image: '/api/media/products/bone.webp',
      product_name: 'Boné Sol',
      product_price: 49.9,
      quantity: 1,
      product_size: 'Único',
      product_color: 'Branco',
    },
  ],
  frete: 23.45,
  servico_frete: 'PAC',
  preco_juros: 0,
  juros: 0,
  subtotal: 249.7,
  total: 273.15,
  parcelas: 1,
  metodo_pagamento: 'pix',
  status: 'pago',
  order_date: '2026-11-24T12:00:00Z',
  address: {
    street: 'Av. Beira Mar, 100',
    neighborhood: 'Meireles',
    city: 'Fortaleza',
    state: 'CE',
    zip_code: '60165-121',
    full_name: 'Maria Exemplo',
    phone: '(85) 99999-0000',
  },
  codigo_rastreio: 'AA123456785BR',
  rastreio_url: 'https://rastreamento.correios.com.br/app/index.php?objetos=AA123456785BR',
};
const buyer = { name: 'Maria Exemplo', email: 'maria@example.com' };

const demoReturn: OrderReturn = {
  id: 77,
  pedido: 1042,
  tipo: 'devolucao',
  status: 'reembolsada',
  motivo: 'arrependimento',
  descricao: null,
  motivo_recusa: null,
  codigo_postagem: '123456789',
  instrucoes: null,
  itens: [
    {
      item_id: 1,
      produto: 'Camiseta Brisa Dry',
      cor: 'Preto',
      tamanho: 'M',
      quantidade: 1,
      valor: 99.9,
      voltou_ao_estoque: true,
    },
  ],
  inscricoes: [],
  valor_reembolsado: 99.9,
  criado_em: '2026-11-28T15:00:00Z',
  versao: 3,
};

/** The orders module's e-mails with demo data, as the jobs build them (docs/decisions/0045). */
export const orderMailPreviews: MailPreview[] = [
  {
    kind: 'pedido.confirmado',
    label: 'Pedido pago (confirmação)',
    build: (env) => [
      orderConfirmationMail({
        env,
        order: demoOrder,
        buyer,
        shipping: { businessDays: 5, latestDate: '2026-12-01' },
      }),
    ],
  },
  {
    kind: 'pedido.acrescimo-proposto',
    label: 'Acréscimo proposto pela loja',
    build: (env) => [
      orderAdditionOfferMail({
        env,
        orderId: demoOrder.id,
        buyer,
        lines: '1× Camiseta Brisa Dry (Preto, G)',
        totalCents: 9990,
        link: `${env.publicUrl}/user/pedidos?acrescentar=1042&produto=1&cor=1&tamanho=3&unidades=1#pedido-1042`,
      }),
    ],
  },
  ...(['em separação', 'enviado', 'entregue', 'cancelado'] as const).map(
    (status): MailPreview => ({
      kind: `pedido.${status.replace(' ', '-')}`,
      label: `Pedido ${status}`,
      build: (env) => {
        const message = orderStatusMail({ env, order: { ...demoOrder, status }, buyer });
        return message ? [message] : [];
      },
    }),
  ),
  {
    kind: 'devolucao.solicitada',
    label: 'Devolução solicitada',
    build: (env) => [
      returnUpdateMail({
        env,
        request: { ...demoReturn, status: 'solicitada', valor_reembolsado: 0 },
        buyer,
      }),
    ],
  },
  {
    kind: 'devolucao.codigo-enviado',
    label: 'Devolução: código de postagem',
    build: (env) => [
      returnUpdateMail({
        env,
        request: { ...demoReturn, status: 'codigo_enviado', valor_reembolsado: 0 },
        buyer,
        deadline: '2026-12-05',
      }),
    ],
  },
  {
    kind: 'devolucao.reembolsada',
    label: 'Devolução reembolsada',
    build: (env) => [returnUpdateMail({ env, request: demoReturn, buyer })],
  },
  {
    kind: 'troca.enviada',
    label: 'Troca enviada',
    build: (env) => [
      returnUpdateMail({
        env,
        request: {
          ...demoReturn,
          tipo: 'troca',
          status: 'trocada',
          valor_reembolsado: 0,
          troca: {
            itens: [{ item_id: 1, produto: 'Camiseta Brisa Dry', cor: 'Preto', tamanho: 'G', quantidade: 1 }],
            diferenca: 0,
            diferenca_paga: true,
            codigo_rastreio: 'AA987654325BR',
          },
        },
        buyer,
      }),
    ],
  },
];
