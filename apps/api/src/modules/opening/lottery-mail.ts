import { formatIsoDateBR, formatStoreDateTime } from '@passada/core/calendar';
import { companyIdentityLine } from '@passada/core/company';
import type { Env } from '../../config/env.ts';
import type { MailMessage } from '../../providers/mail/index.ts';

export type LotteryMailKind = 'inscrito' | 'sorteado' | 'nao_sorteado';

/** The lottery's e-mails: the entry confirmed, a winner's place and deadline, and the others' result. */
export function lotteryMail(input: {
  env: Pick<Env, 'STORE_NAME'>;
  kind: LotteryMailKind;
  entry: { id: number; fullName: string; email: string; payBy: Date | null };
  event: { name: string; startDate: string; time: string };
  categoryName: string;
  entriesUntil: Date;
  page: string;
}): MailMessage {
  const { env, kind, entry, event, categoryName, page } = input;
  const lines = {
    inscrito: [
      `Olá, ${entry.fullName}!`,
      '',
      `Sua inscrição no sorteio de ${event.name} (${categoryName}) foi registrada com o número ${entry.id}.`,
      `As inscrições no sorteio vão até ${formatStoreDateTime(input.entriesUntil)}; depois delas sai o resultado, por e-mail e na página do evento.`,
      'Nada é cobrado agora: só quem for sorteado paga a inscrição, dentro do prazo.',
    ],
    sorteado: [
      `Olá, ${entry.fullName}!`,
      '',
      `Você foi sorteado(a) em ${event.name} (${categoryName}). Sua vaga está reservada até ${entry.payBy ? formatStoreDateTime(entry.payBy) : '-'}.`,
      'Para ficar com ela, faça a inscrição e o pagamento na página do evento dentro desse prazo, com o mesmo CPF do sorteio; depois dele, a vaga vai para o próximo da classificação.',
    ],
    nao_sorteado: [
      `Olá, ${entry.fullName}!`,
      '',
      `O sorteio de ${event.name} foi realizado e sua inscrição (número ${entry.id}) não ficou entre as vagas desta vez.`,
      'Ela continua na classificação: se um sorteado não pagar no prazo, novos sorteios chamam os próximos, e você pode ser sorteado(a) depois. Avisaremos por e-mail.',
    ],
  }[kind];
  const subject = {
    inscrito: `${env.STORE_NAME}: você está no sorteio de ${event.name}`,
    sorteado: `${env.STORE_NAME}: você foi sorteado(a) em ${event.name}`,
    nao_sorteado: `${env.STORE_NAME}: resultado do sorteio de ${event.name}`,
  }[kind];
  return {
    to: entry.email,
    subject,
    text: [
      ...lines,
      '',
      `Acompanhe o sorteio e confira o resultado: ${page}`,
      `Evento: ${event.name}, ${formatIsoDateBR(event.startDate)} às ${event.time}`,
      '',
      companyIdentityLine(),
    ].join('\n'),
  };
}
