import type { RunnerResult } from '@passada/core/contracts/results';
import { formatIsoDateBR } from '@passada/core/events';
import type { FastifyBaseLogger } from 'fastify';
import type { Env } from '../../config/env.ts';
import type { MailMessage, MailProvider } from '../../providers/mail/index.ts';
import { templateParameter, type WhatsAppProvider, whatsappNumber } from '../../providers/whatsapp/index.ts';
import type { ResultsService } from './results.service.ts';

export interface ResultsMailDeps {
  env: Pick<Env, 'STORE_NAME' | 'publicUrl'>;
  log: FastifyBaseLogger;
  mail: MailProvider;
  results: Pick<ResultsService, 'finishers'>;
  /**
   * The registrations module's answer: the name, addresses, shirt size and WhatsApp opt-in of a standing
   * registration per bib.
   */
  contactsByBib: (
    eventId: number,
    bibs: number[],
  ) => Promise<
    Map<
      number,
      { name: string; email: string; kitSize: string | null; phone: string; whatsappConsentAt: Date | null }
    >
  >;
  whatsapp: WhatsAppProvider;
  /** The catalogue's answer: a product's name and units left by size (all colours), when it still exists. */
  finisherShirt: (productId: number) => Promise<FinisherShirt | undefined>;
}

/** The event's finisher shirt as the e-mail offers it: in the runner's kit size, from the live stock. */
export interface FinisherShirt {
  id: number;
  name: string;
  unitsBySize: Map<string, number>;
}

const place = (n: number | null, of: number) => (n === null ? '—' : `${n}º de ${of}`);

/** The e-mail of a finisher's result: each race finished, with time, pace and places, and the links. */
export function resultMail(
  env: ResultsMailDeps['env'],
  to: { name: string; email: string; kitSize?: string | null },
  result: RunnerResult,
  bib: number,
  shirt?: FinisherShirt,
): MailMessage {
  const base = env.publicUrl.replace(/\/+$/, '');
  const page = `${base}/eventos/resultados/${result.evento.id}/${bib}`;
  const finished = result.provas.filter((p) => p.situacao === 'OK');
  return {
    to: to.email,
    subject: `${env.STORE_NAME}: seu resultado na ${result.evento.nome}`,
    text: [
      `Olá, ${to.name}!`,
      '',
      `Os resultados da ${result.evento.nome} foram publicados. Parabéns por completar a prova!`,
      '',
      ...finished.flatMap((p) => [
        `${p.categoria} (peito ${p.numero}):`,
        `- Tempo líquido: ${p.tempo_liquido ?? '—'}; tempo bruto: ${p.tempo_bruto ?? '—'}; ritmo: ${p.ritmo ?? '—'}`,
        `- Colocação geral: ${place(p.colocacao_geral, p.concluintes_geral)}; no gênero: ${place(p.colocacao_genero, p.concluintes_genero)}; na faixa ${p.faixa_etaria}: ${place(p.colocacao_faixa, p.concluintes_faixa)}`,
        '',
      ]),
      'O seu certificado está anexo, com um QR code que confere o resultado na loja.',
      `A sua página de resultado: ${page}`,
      ...backToShopLines(base, to.kitSize ?? null, result, shirt),
    ].join('\n'),
  };
}

/** The finisher shirt in the runner's kit size (live stock) and the next edition, when staff linked them. */
function backToShopLines(
  base: string,
  kitSize: string | null,
  result: RunnerResult,
  shirt: FinisherShirt | undefined,
): string[] {
  const lines: string[] = [];
  if (shirt) {
    const left = kitSize ? (shirt.unitsBySize.get(kitSize) ?? 0) : 0;
    const size = kitSize
      ? left > 0
        ? `no seu tamanho (${kitSize}) ainda há na loja`
        : `no seu tamanho (${kitSize}) está esgotada no momento`
      : 'veja os tamanhos na loja';
    lines.push('', `Camisa finisher da prova, ${shirt.name}: ${size}. ${base}/produto/${shirt.id}`);
  }
  const next = result.depois_da_chegada.proxima_edicao;
  if (next)
    lines.push(
      '',
      `Próxima edição: ${next.nome}, em ${formatIsoDateBR(next.data)}. Garanta a sua vaga: ${base}/eventos/register/${next.id}`,
      `Pré-inscrição em um clique (sorteio ou lista de espera), pela conta que fez a inscrição: ${base}/user/inscricoes`,
    );
  return lines;
}

/**
 * Sends a finisher the published result with the certificate attached (decision 0064, later). Nothing
 * is sent when the bib has no standing registration, or no longer a finished result (a later file
 * changed it: that publication queued its own e-mail).
 */
export function createResultsMail(deps: ResultsMailDeps) {
  /**
   * Each bib of a job in turn, from one read of their results (the rows, counts, event and links) and of
   * their contacts; a failure stops the job, whose retry sends the rest.
   */
  async function sendCertificates(eventId: number, bibs: number[]): Promise<void> {
    const contacts = await deps.contactsByBib(eventId, bibs);
    const read = await deps.results.finishers(
      eventId,
      bibs.filter((bib) => contacts.has(bib)),
    );
    let shirt: { id: number | null; value: FinisherShirt | undefined } | undefined;
    for (const bib of bibs) {
      const contact = contacts.get(bib);
      const result = contact && (await read.runner(bib));
      const pdf = result && (await read.certificate(bib));
      if (!contact || !result || !pdf) continue;
      // The event's finisher shirt, its live stock read once per job.
      const shirtId = result.depois_da_chegada.camisa_finisher_id;
      if (shirt?.id !== shirtId)
        shirt = { id: shirtId, value: shirtId === null ? undefined : await deps.finisherShirt(shirtId) };
      const message = resultMail(deps.env, contact, result, bib, shirt.value);
      await deps.mail.send({
        ...message,
        attachments: [{ filename: `certificado-${bib}.pdf`, content: pdf, contentType: 'application/pdf' }],
      });
      deps.log.info({ eventId, bib }, 'result certificate mail sent');
    }
  }
  /**
   * The published result on WhatsApp (template `resultado_publicado`) to each finisher of `bibs` who
   * opted in at registration: the first race finished, its net time and the link to the runner's page,
   * where the places and the certificate are. Nothing for a bib without opt-in or finished result.
   */
  async function sendWhatsApp(eventId: number, bibs: number[]): Promise<void> {
    const contacts = await deps.contactsByBib(eventId, bibs);
    const base = deps.env.publicUrl.replace(/\/+$/, '');
    const read = await deps.results.finishers(
      eventId,
      bibs.filter((bib) => contacts.get(bib)?.whatsappConsentAt),
    );
    for (const bib of bibs) {
      const contact = contacts.get(bib);
      if (!contact?.whatsappConsentAt) continue;
      const result = await read.runner(bib);
      const race = result?.provas.find((p) => p.situacao === 'OK');
      if (!result || !race) continue;
      await deps.whatsapp.send({
        to: whatsappNumber(contact.phone),
        consentAt: contact.whatsappConsentAt,
        template: 'resultado_publicado',
        parameters: [
          contact.name.split(' ')[0] ?? contact.name,
          result.evento.nome,
          race.categoria,
          race.tempo_liquido ?? race.tempo_bruto ?? '—',
          `${base}/eventos/resultados/${eventId}/${bib}`,
        ].map(templateParameter),
      });
    }
  }
  return { sendCertificates, sendWhatsApp };
}
