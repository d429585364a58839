import { dateInTimeZone, STORE_TIME_ZONE } from '@passada/core/calendar';
import { companyIdentityLine } from '@passada/core/company';
import { formatBRL } from '@passada/core/money';
import type { Env } from '../../config/env.ts';
import type { MailMessage } from '../../providers/mail/index.ts';

const MIN_CARD_HOLDER_AGE = 16;
const MAX_CARD_HOLDER_AGE = 120;

/** Whole years between an ISO birth date and an ISO day. */
function ageOn(birth: string, day: string): number {
  const [by, bm, bd] = birth.split('-').map(Number) as [number, number, number];
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
}

/**
 * Why a card holder's date of birth cannot be sent to the card provider, or null when it can: a
 * real calendar date, in the past, of someone 16 to 120 years old.
 */
export function cardHolderBirthProblem(birth: string, now: Date): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(birth);
  const date = match ? new Date(`${birth}T12:00:00Z`) : null;
  if (!match || !date || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== birth)
    return 'Informe uma data de nascimento válida (AAAA-MM-DD).';
  const today = dateInTimeZone(now, STORE_TIME_ZONE);
  if (birth >= today) return 'A data de nascimento deve estar no passado.';
  const age = ageOn(birth, today);
  if (age < MIN_CARD_HOLDER_AGE) return 'O titular do cartão deve ter pelo menos 16 anos.';
  if (age > MAX_CARD_HOLDER_AGE) return 'Informe uma data de nascimento válida.';
  return null;
}

/**
 * The e-mail telling a payer their payment is being returned: how much, why, how and when it arrives.
 * It is sent when the refund is asked for, so it never says the money is already back.
 */
export function refundNoticeMail(input: {
  env: Pick<Env, 'STORE_NAME' | 'publicUrl'>;
  payer: { name: string; email: string; page: string };
  refund: { amountCents: number; reason: string };
  purpose: 'order' | 'registration' | 'exchange' | 'team_places';
  method: 'pix' | 'cartao';
}): MailMessage {
  const { env, payer, refund, purpose, method } = input;
  const what =
    purpose === 'order'
      ? 'seu pedido'
      : purpose === 'exchange'
        ? 'a diferença da sua troca'
        : purpose === 'team_places'
          ? 'a compra de vagas para a sua equipe'
          : 'sua inscrição';
  const amount = formatBRL(refund.amountCents);
  const how =
    method === 'pix'
      ? [
          `Recebemos o seu Pix de ${amount}, mas não foi possível concluir ${what}:`,
          refund.reason,
          '',
          `Pedimos a devolução do valor integral de ${amount} pelo próprio Pix, para a conta de onde ele saiu.`,
          'A devolução costuma chegar em poucos minutos e pode levar até 1 dia útil, conforme o seu banco.',
        ]
      : [
          `Recebemos o pagamento de ${amount} no seu cartão de crédito, mas não foi possível concluir ${what}:`,
          refund.reason,
          '',
          `Pedimos à operadora o estorno do valor integral de ${amount} no mesmo cartão.`,
          'O estorno aparece na fatura do cartão em até duas faturas, conforme o banco emissor.',
        ];
  return {
    to: payer.email,
    subject: `${env.STORE_NAME}: estamos devolvendo o seu pagamento`,
    text: [
      `Olá, ${payer.name}!`,
      '',
      ...how,
      'Nada será entregue e nenhuma cobrança fica pendente.',
      '',
      `Acompanhe em ${env.publicUrl}${payer.page}: a página mostra "Devolvido" quando o valor tiver voltado. Dúvidas? Responda a este e-mail.`,
      '',
      companyIdentityLine(),
    ].join('\n'),
  };
}
