import type { MailPreview } from '../../providers/mail/index.ts';
import { notaMail } from './fiscal-mail.ts';

/** A demo nota's key (44 digits, its check digit right): no real sale's. */
const DEMO_KEY = '23261112345678000195550010000010421000010424';

/** The nota e-mails with demo data, as the fiscal job builds them (docs/decisions/0043). */
export const fiscalMailPreviews: MailPreview[] = [
  {
    kind: 'nota.nfe',
    label: 'Nota fiscal do pedido (NF-e)',
    build: (env) => [
      notaMail({
        env,
        to: { name: 'Maria Exemplo', email: 'maria@example.com' },
        about: 'seu pedido nº 1042',
        kind: 'nfe',
        number: '1042',
        accessKey: DEMO_KEY,
        pdfUrl: `${env.publicUrl}/api/notas/1/exemplo/danfe.pdf`,
        xmlUrl: `${env.publicUrl}/api/notas/1/exemplo/nota.xml`,
        demo: true,
      }),
    ],
  },
];
