import type { MailPreview } from '../../providers/mail/index.ts';
import { refundNoticeMail } from './payment-rules.ts';

const payer = {
  name: 'Maria Exemplo',
  email: 'maria@example.com',
  page: 'http://localhost:3000/conta/pedidos/1042',
};

/** The payments module's e-mails with demo data, as the jobs build them (docs/decisions/0045). */
export const paymentMailPreviews: MailPreview[] = [
  {
    kind: 'pagamento.devolvido-pix',
    label: 'Pagamento devolvido (Pix)',
    build: (env) => [
      refundNoticeMail({
        env,
        payer: { ...payer, page: `${env.publicUrl}/conta/pedidos/1042` },
        refund: { amountCents: 27315, reason: 'Os itens esgotaram antes da confirmação do Pix.' },
        purpose: 'order',
        method: 'pix',
      }),
    ],
  },
  {
    kind: 'pagamento.estornado-cartao',
    label: 'Pagamento estornado (cartão)',
    build: (env) => [
      refundNoticeMail({
        env,
        payer: { ...payer, page: `${env.publicUrl}/eventos/register/7/ja-me-inscrevi` },
        refund: { amountCents: 10990, reason: 'As vagas da categoria se esgotaram.' },
        purpose: 'registration',
        method: 'cartao',
      }),
    ],
  },
];
