import type { MailPreview } from '../../providers/mail/index.ts';
import { trackingMail } from './labels-mail.ts';

/** The shipping e-mails with demo data, as the tracking job builds them (docs/decisions/0044). */
export const shippingMailPreviews: MailPreview[] = [
  {
    kind: 'entrega.saiu-para-entrega',
    label: 'Pedido saiu para entrega',
    build: (env) => {
      const message = trackingMail({
        env,
        orderId: 1042,
        state: 'saiu_para_entrega',
        trackingCode: 'AA123456785BR',
        buyer: { name: 'Maria Exemplo', email: 'maria@example.com' },
      });
      return message ? [message] : [];
    },
  },
];
