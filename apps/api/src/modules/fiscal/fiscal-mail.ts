import { FISCAL_KIND_LABELS } from '@passada/core/contracts/fiscal';
import type { Env } from '../../config/env.ts';
import { formatAccessKey } from '../../providers/invoicing/index.ts';
import type { MailMessage } from '../../providers/mail/index.ts';

/** The e-mail with an authorised nota's links: the DANFE (or NFS-e) PDF and the XML. */
export function notaMail(input: {
  env: Pick<Env, 'STORE_NAME'>;
  to: { name: string; email: string };
  /** "seu pedido nº 12", "sua inscrição nº 3 em Corrida X". */
  about: string;
  kind: keyof typeof FISCAL_KIND_LABELS;
  number: string;
  accessKey: string | null;
  pdfUrl: string;
  xmlUrl: string;
  /** Issued by the demo issuer: no fiscal value. */
  demo: boolean;
}): MailMessage {
  const label = FISCAL_KIND_LABELS[input.kind];
  const lines = [
    `Olá, ${input.to.name}!`,
    '',
    `A nota fiscal (${label} nº ${input.number}) de ${input.about} foi emitida.`,
    ...(input.accessKey ? [`Chave de acesso: ${formatAccessKey(input.accessKey)}`] : []),
    '',
    `${input.kind === 'nfse' ? 'NFS-e' : 'DANFE'} (PDF): ${input.pdfUrl}`,
    `XML: ${input.xmlUrl}`,
    '',
    ...(input.demo ? ['Loja de demonstração: esta nota é SEM VALOR FISCAL.', ''] : []),
    'Guarde o XML: ele é a nota fiscal; o PDF é a representação impressa dela.',
    '',
    `Equipe ${input.env.STORE_NAME}`,
  ];
  return { to: input.to.email, subject: `Nota fiscal de ${input.about}`, text: lines.join('\n') };
}
