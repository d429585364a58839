import { streetLine } from '@passada/core/address';
import { formatIsoDateBR, formatStoreDateTime } from '@passada/core/calendar';
import { formatCep } from '@passada/core/cep';
import { companyIdentityLine } from '@passada/core/company';
import type { Order } from '@passada/core/contracts/orders';
import { smallestRaster } from '@passada/core/images';
import { formatBRL, reaisToCents } from '@passada/core/money';
import { plural } from '@passada/core/plural';
import { escapeXml } from '@passada/core/text';
import type { Env } from '../../config/env.ts';
import { type MailMessage, textToHtml } from '../../providers/mail/index.ts';

const brl = (reais: number) => formatBRL(reaisToCents(reais));

/** The confirmation e-mail of a paid order: what was bought, where it goes, what was paid, and the
 * buyer's right of withdrawal (CDC art. 49, online purchases). */
export function orderConfirmationMail(input: {
  env: Pick<Env, 'STORE_NAME' | 'publicUrl'>;
  order: Order;
  buyer: { name: string; email: string };
  /** Absent when nothing in the order ships (only event registrations). */
  shipping?: { businessDays: number; latestDate: string };
}): MailMessage {
  const { env, order, buyer, shipping } = input;
  const a = order.address;
  // A cart of total zero (free registrations) was confirmed without a payment (docs/decisions/0028).
  const free = order.metodo_pagamento === 'gratuito';
  const paidWith =
    order.metodo_pagamento === 'pix'
      ? 'Pix'
      : `cartão de crédito em ${order.parcelas}× de ${brl(order.total / order.parcelas)}`;
  const paidOn = formatStoreDateTime(new Date(order.order_date));
  const ordersPage = `${env.publicUrl}/user/pedidos#pedido-${order.id}`;
  const intro = [
    `Olá, ${buyer.name}!`,
    '',
    free
      ? `Seu pedido nº ${order.id} foi confirmado em ${paidOn}, sem pagamento: não havia valor a pagar. Obrigado por escolher a ${env.STORE_NAME}!`
      : `Recebemos o pagamento do seu pedido nº ${order.id} em ${paidOn}. Obrigado por comprar na ${env.STORE_NAME}!`,
    // An addition (docs/decisions/0087) travels with the order it joins.
    ...(order.complemento_de
      ? [
          `Este pedido é um acréscimo ao pedido nº ${order.complemento_de}: os itens vão na mesma caixa, sem frete.`,
        ]
      : []),
    '',
  ];
  const itemLines = order.items.length
    ? [
        'Itens:',
        ...order.items.map(
          (i) =>
            `- ${i.quantity} × ${i.product_name} (${i.product_color}, ${i.product_size}): ${brl(i.product_price * i.quantity)}`,
        ),
        '',
      ]
    : [];
  const lines = [
    ...(order.items.length ? [`Subtotal: ${brl(order.subtotal)}`] : []),
    ...(order.inscricoes?.length
      ? [
          ...(order.items.length ? [''] : []),
          'Inscrições (cada participante recebe a confirmação com o número e o QR code da retirada do kit):',
          ...order.inscricoes.map(
            (r) =>
              `- Inscrição nº ${r.id}: ${r.nome_completo}, ${r.nome_evento} (${r.categorias.join(', ')}${r.tamanho_camisa ? `; camisa ${r.tamanho_camisa}` : ''}): ${brl(r.total)}`,
          ),
          '',
        ]
      : []),
    ...(shipping
      ? [
          `Frete (${order.servico_frete}, até ${plural(shipping.businessDays, 'dia útil', 'dias úteis')}, entrega até ${formatIsoDateBR(shipping.latestDate)}): ${brl(order.frete)}`,
        ]
      : []),
    ...(order.cupom && order.desconto ? [`Desconto (cupom ${order.cupom}): −${brl(order.desconto)}`] : []),
    ...(order.juros > 0 ? [`Juros do parcelamento: ${brl(order.juros)}`] : []),
    free ? 'Total: gratuito' : `Total pago: ${brl(order.total)} (${paidWith})`,
    '',
    ...(a
      ? [
          'Endereço de entrega:',
          a.full_name,
          `${streetLine(a)} – ${a.neighborhood}`,
          `${a.city}/${a.state} – CEP ${formatCep(a.zip_code)}`,
          `Telefone: ${a.phone}`,
          '',
        ]
      : []),
    // CDC art. 49: seven days from receiving the products, or from this confirmation when nothing ships.
    // Both are done by the buyer on the site (the order's "Desistir" and the registration's "Cancelar").
    free
      ? `Se não puder participar, cancele a inscrição em ${env.publicUrl}/user/inscricoes: a vaga fica para outra pessoa.`
      : `Direito de arrependimento: você pode desistir desta compra em até 7 dias a contar ${order.items.length ? 'do recebimento dos produtos' : 'desta confirmação'}, ` +
        `com devolução integral do valor pago (art. 49 do Código de Defesa do Consumidor). Desista pelo próprio site, no pedido: ${ordersPage}`,
    '',
    `Acompanhe seus pedidos em ${env.publicUrl}/user/pedidos.`,
    '',
    companyIdentityLine(),
  ];
  return {
    to: buyer.email,
    subject: `${env.STORE_NAME}: pedido nº ${order.id} confirmado`,
    text: [...intro, ...itemLines, ...lines].join('\n'),
    // The same words, the items as a table with their pictures.
    html: [textToHtml(intro.join('\n')), itemsTable(env.publicUrl, order), textToHtml(lines.join('\n'))].join(
      '\n',
    ),
    action: { label: 'Ver meu pedido', url: ordersPage },
  };
}

/**
 * The order's items as a table mail programs lay out (inline styles): the product's picture (its smallest
 * WebP copy, its name as alt), what it is, how many and what they cost. Empty when nothing ships.
 */
function itemsTable(publicUrl: string, order: Order): string {
  if (!order.items.length) return '';
  const rows = order.items
    .map((i) => {
      const picture = escapeXml(`${publicUrl}${smallestRaster(i.product_image)}`);
      return `<tr>
<td style="padding:8px 8px 8px 0;border-bottom:1px solid #e4e4e7;width:72px;"><img src="${picture}" width="64" height="64" alt="${escapeXml(i.product_name)}" style="display:block;border:0;border-radius:6px;object-fit:cover;"></td>
<td style="padding:8px 0;border-bottom:1px solid #e4e4e7;">${escapeXml(i.product_name)}<br><span style="font-size:14px;">${escapeXml(`${i.product_color}, ${i.product_size} · ${i.quantity} ×`)}</span></td>
<td style="padding:8px 0 8px 8px;border-bottom:1px solid #e4e4e7;text-align:right;white-space:nowrap;">${escapeXml(brl(i.product_price * i.quantity))}</td>
</tr>`;
    })
    .join('\n');
  return `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="border-collapse:collapse;margin:0 0 16px;">
<caption style="text-align:left;font-weight:bold;padding:0 0 4px;">Itens</caption>
${rows}
</table>`;
}

/** What went back with a cancelled order: its products, its event registrations, or both. */
function cancelledWhat(o: Order): string {
  const registrations = o.inscricoes?.length
    ? `${o.inscricoes.length === 1 ? 'a inscrição' : 'as inscrições'} em ${[...new Set(o.inscricoes.map((r) => r.nome_evento))].join(', ')} ${o.inscricoes.length === 1 ? 'foi cancelada' : 'foram canceladas'} (${o.inscricoes.length === 1 ? 'a vaga foi liberada' : 'as vagas foram liberadas'})`
    : '';
  if (!o.items.length) return registrations ? `: ${registrations}` : '';
  return registrations
    ? `: os itens voltaram ao estoque e ${registrations}`
    : ' e os itens voltaram ao estoque';
}

const STATUS_LINES: Partial<Record<Order['status'], (order: Order) => string>> = {
  'em separação': (o) => `Seu pedido nº ${o.id} está sendo separado e embalado.`,
  enviado: (o) =>
    `Seu pedido nº ${o.id} foi enviado pelos Correios (${o.servico_frete}). Código de rastreio: ${o.codigo_rastreio}.\nAcompanhe a entrega em ${o.rastreio_url}`,
  entregue: (o) => `Seu pedido nº ${o.id} foi entregue. Esperamos que aproveite!`,
  cancelado: (o) =>
    o.total === 0
      ? `Seu pedido nº ${o.id} foi cancelado${cancelledWhat(o)}. Não havia valor pago: nada a devolver.`
      : `Seu pedido nº ${o.id} foi cancelado${cancelledWhat(o)}. O valor de ${brl(o.total)} será devolvido ` +
        (o.metodo_pagamento === 'pix'
          ? 'por Pix para a conta que pagou.'
          : 'no seu cartão de crédito; o estorno aparece na fatura conforme o prazo do banco emissor.'),
};

/**
 * Staff's proposal of an addition (docs/decisions/0087, later): what they suggest, its price today, and the
 * link to "Meus pedidos" where the buyer confirms and pays it; nothing is charged until then.
 */
export function orderAdditionOfferMail(input: {
  env: Pick<Env, 'STORE_NAME'>;
  orderId: number;
  buyer: { name: string; email: string };
  lines: string;
  totalCents: number;
  link: string;
}): MailMessage {
  const { env, orderId, buyer } = input;
  return {
    to: buyer.email,
    subject: `${env.STORE_NAME}: quer acrescentar ao pedido nº ${orderId}?`,
    text: [
      `Olá, ${buyer.name}!`,
      '',
      `A equipe da ${env.STORE_NAME} preparou um acréscimo ao seu pedido nº ${orderId}, que ainda não foi enviado: ${input.lines}, por ${formatBRL(input.totalCents)} (preço de hoje), sem frete: vai na mesma caixa.`,
      '',
      `Para confirmar e pagar por Pix ou cartão, abra: ${input.link}`,
      'Nada foi cobrado: o acréscimo só vale depois do pagamento, enquanto o pedido não for enviado, e pelo preço do dia.',
      '',
      companyIdentityLine(),
    ].join('\n'),
  };
}

/** The e-mail telling the buyer their order moved (packed, shipped with tracking, delivered, cancelled). */
export function orderStatusMail(input: {
  env: Pick<Env, 'STORE_NAME' | 'publicUrl'>;
  order: Order;
  buyer: { name: string; email: string };
}): MailMessage | null {
  const { env, order, buyer } = input;
  const line = STATUS_LINES[order.status];
  if (!line) return null;
  return {
    to: buyer.email,
    subject: `${env.STORE_NAME}: pedido nº ${order.id} ${order.status}`,
    text: [
      `Olá, ${buyer.name}!`,
      '',
      line(order),
      '',
      `Acompanhe seus pedidos em ${env.publicUrl}/user/pedidos.`,
      '',
      companyIdentityLine(),
    ].join('\n'),
  };
}
