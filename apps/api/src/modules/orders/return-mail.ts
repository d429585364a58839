import { formatIsoDateBR } from '@passada/core/calendar';
import { companyIdentityLine } from '@passada/core/company';
import { type OrderReturn, RETURN_KIND_LABEL, RETURN_STATUS_LABEL } from '@passada/core/contracts/returns';
import { formatBRL, reaisToCents } from '@passada/core/money';
import type { Env } from '../../config/env.ts';
import type { MailMessage } from '../../providers/mail/index.ts';

const brl = (reais: number) => formatBRL(reaisToCents(reais));

/** What each state means for the buyer, in one sentence. */
const STATE_LINES: Record<OrderReturn['status'], (r: OrderReturn) => string> = {
  solicitada: () => 'Recebemos a sua solicitação e vamos enviar o código de postagem.',
  codigo_enviado: (r) =>
    `Poste os itens em qualquer agência dos Correios com o código de postagem ${r.codigo_postagem ?? ''}, sem pagar nada.`,
  postada: () => 'Os itens foram postados e estão a caminho da loja.',
  recebida: () => 'Os itens chegaram à loja e estão sendo conferidos.',
  reembolsada: (r) =>
    r.valor_reembolsado > 0
      ? `Pedimos a devolução de ${brl(r.valor_reembolsado)} pelo mesmo meio de pagamento: pelo Pix chega em minutos (até 1 dia útil); no cartão, o estorno aparece em até duas faturas.`
      : 'Nada foi cobrado por estes itens, então não há valor a devolver.',
  trocada: (r) =>
    r.troca?.codigo_rastreio
      ? `A troca foi enviada com o código de rastreio ${r.troca.codigo_rastreio}.`
      : 'A troca foi enviada; o código de rastreio está na página do pedido.',
  recusada: (r) => `A solicitação foi recusada: ${r.motivo_recusa ?? ''}`,
};

/** An exchange's side (docs/decisions/0040): what goes out and the price difference. */
function exchangeLines(r: OrderReturn): string[] {
  if (!r.troca) return [];
  const difference = r.troca.diferenca;
  return [
    'Você recebe em troca:',
    ...r.troca.itens.map((i) => `- ${i.quantidade} × ${i.produto} (${i.cor}, ${i.tamanho}), já reservado`),
    '',
    ...(difference > 0
      ? [
          r.troca.diferenca_paga
            ? `Diferença de preço de ${brl(difference)}: paga.`
            : `Diferença de preço de ${brl(difference)}: pague na página do pedido para a troca ser enviada.`,
          '',
        ]
      : difference < 0
        ? [`Diferença de preço a seu favor: ${brl(-difference)}, devolvida quando a troca for enviada.`, '']
        : []),
  ];
}

/**
 * The e-mail that confirms a withdrawal, return or exchange at once (Decreto 7.962/2013 art. 5 §§ 3–4)
 * and each later step, with the link to the order page where the whole history is.
 */
export function returnUpdateMail(input: {
  env: Pick<Env, 'STORE_NAME' | 'publicUrl'>;
  request: OrderReturn;
  buyer: { name: string; email: string };
  deadline?: string | null;
}): MailMessage {
  const { env, request: r, buyer } = input;
  // Units staff took off before shipping (docs/decisions/0065) are the shop's change, not the buyer's.
  const byShop = r.motivo === 'loja';
  const kind = byShop ? 'Alteração' : RETURN_KIND_LABEL[r.tipo];
  return {
    to: buyer.email,
    subject: `${env.STORE_NAME}: ${kind.toLowerCase()} nº ${r.id} do pedido nº ${r.pedido}: ${RETURN_STATUS_LABEL[r.status].toLowerCase()}`,
    text: [
      `Olá, ${buyer.name}!`,
      '',
      byShop
        ? `A loja alterou o seu pedido nº ${r.pedido} antes do envio (alteração nº ${r.id})${r.descricao ? `: ${r.descricao}` : '.'} O valor abaixo volta pela mesma forma de pagamento.`
        : r.status === 'reembolsada' && r.tipo === 'desistencia'
          ? // A list's note names its swaps of colour or size (docs/decisions/0065).
            `Confirmamos o recebimento da sua desistência da compra (pedido nº ${r.pedido}, solicitação nº ${r.id}).${r.descricao ? ` ${r.descricao}` : ''}`
          : `${kind} nº ${r.id} do pedido nº ${r.pedido}: ${RETURN_STATUS_LABEL[r.status]}.`,
      '',
      ...(r.itens.length
        ? [
            'Itens:',
            ...r.itens.map(
              (i) => `- ${i.quantidade} × ${i.produto} (${i.cor}, ${i.tamanho}): ${brl(i.valor)}`,
            ),
            '',
          ]
        : []),
      ...(r.inscricoes.length
        ? [`Inscrições canceladas: ${r.inscricoes.map((id) => `nº ${id}`).join(', ')}.`, '']
        : []),
      ...exchangeLines(r),
      STATE_LINES[r.status](r),
      ...(input.deadline ? ['', `Prazo para postar: até ${formatIsoDateBR(input.deadline)}.`] : []),
      '',
      `Acompanhe em ${env.publicUrl}/user/pedidos#pedido-${r.pedido}. Dúvidas? Responda a este e-mail.`,
      '',
      companyIdentityLine(),
    ].join('\n'),
  };
}
