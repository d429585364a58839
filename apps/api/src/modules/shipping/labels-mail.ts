import { companyIdentityLine } from '@passada/core/company';
import { trackingUrl } from '@passada/core/contracts/painel-orders';
import type { Env } from '../../config/env.ts';
import type { MailMessage } from '../../providers/mail/index.ts';

/**
 * The e-mail telling the buyer their parcel is out for delivery (docs/decisions/0044). Posted and
 * delivered are told by the order's own status e-mails (`enviado`, `entregue`).
 */
export function trackingMail(input: {
  env: Pick<Env, 'STORE_NAME' | 'publicUrl'>;
  orderId: number;
  state: string;
  trackingCode: string;
  buyer: { name: string; email: string };
}): MailMessage | null {
  const { env, orderId, trackingCode, buyer } = input;
  if (input.state !== 'saiu_para_entrega') return null;
  return {
    to: buyer.email,
    subject: `${env.STORE_NAME}: pedido nº ${orderId} saiu para entrega`,
    text: [
      `Olá, ${buyer.name}!`,
      '',
      `Seu pedido nº ${orderId} saiu para entrega hoje. Código de rastreio: ${trackingCode}.`,
      `Acompanhe em ${trackingUrl(trackingCode)}`,
      '',
      `Acompanhe seus pedidos em ${env.publicUrl}/user/pedidos.`,
      '',
      companyIdentityLine(),
    ].join('\n'),
  };
}
