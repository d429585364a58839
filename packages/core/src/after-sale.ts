/**
 * The organiser's after-sale rules of an event (docs/decisions/0035-runner-after-sale.md): what a
 * runner may do alone after paying (cancel, transfer, change distance or shirt) and the waitlist.
 * Pure: the server prices and checks with it, the pages explain the same rules in Portuguese.
 */
import {
  dateInTimeZone,
  formatIsoDateBR,
  formatStoreDateTime,
  type IsoDate,
  STORE_TIME_ZONE,
} from './calendar.ts';
import { formatBRL } from './money.ts';
import { plural } from './plural.ts';

/** The right of withdrawal of the consumer code (CDC art. 49): 7 days from the purchase. */
export const WITHDRAWAL_DAYS = 7;

export type AfterWindowCancellation = 'nao' | 'taxa' | 'percentual';

export interface AfterSaleRules {
  /** A full refund within the 7 days only when the race starts at least this many hours later. */
  cancelMinHours: number;
  /** After the 7 days (or too close to the start): not allowed, a fixed fee kept, or a percentage kept. */
  cancelAfterWindow: AfterWindowCancellation;
  cancelFeeCents: number;
  cancelKeptPercent: number;
  transferAllowed: boolean;
  /** Last day (America/Fortaleza); null: the event's registration deadline. */
  transferUntil: IsoDate | null;
  transferFeeCents: number;
  categoryChangeAllowed: boolean;
  categoryChangeUntil: IsoDate | null;
  categoryChangeFeeCents: number;
  /** A cheaper distance gives the difference back; otherwise the difference stays with the organiser. */
  categoryChangeRefundsDifference: boolean;
  sizeChangeAllowed: boolean;
  sizeChangeUntil: IsoDate | null;
  /** How long a freed place offered to the first of the waitlist is held for them. */
  waitlistOfferHours: number;
  /** The categories (ids) whose sold-out state opens a waitlist; empty: no waitlist in this event. */
  waitlistCategoryIds: number[];
  /** Whether a runner may authorise someone else to collect the kit (docs/decisions/0063, later). */
  delegationAllowed: boolean;
  /** Refused for a registration with the 60+ half price, as many regulations ask. */
  delegationRefusedSeniorHalf: boolean;
  /** The item asked at pickup ("1 kg de alimento não perecível"); null: none. */
  pickupItem: string | null;
  /** The unit the desk counts it in ("kg"); null: units. */
  pickupItemUnit: string | null;
  /** Only then is a paid kit refused without the item; otherwise it is counted, never required. */
  pickupItemRequired: boolean;
  /** A team's prepaid places nobody claimed by the registration deadline: refunded, or back to sale. */
  teamUnclaimed: 'devolver' | 'liberar';
  /** Team prices: from `minMembers` members of one team, `percent` off the lot (docs/decisions/0074). */
  teamTiers: Array<{ minMembers: number; percent: number }>;
  /**
   * Referral links (docs/decisions/0086): after `referralMin` registrations paid through a runner's link,
   * `referralPercent` of what that runner paid goes back to them; null: no referral in this event.
   */
  referralMin: number | null;
  referralPercent: number;
}

/** What an event without its own rules follows. */
export const DEFAULT_AFTER_SALE_RULES: AfterSaleRules = {
  cancelMinHours: 48,
  cancelAfterWindow: 'nao',
  cancelFeeCents: 0,
  cancelKeptPercent: 0,
  transferAllowed: true,
  transferUntil: null,
  transferFeeCents: 0,
  categoryChangeAllowed: true,
  categoryChangeUntil: null,
  categoryChangeFeeCents: 0,
  categoryChangeRefundsDifference: false,
  sizeChangeAllowed: true,
  sizeChangeUntil: null,
  waitlistOfferHours: 24,
  waitlistCategoryIds: [],
  delegationAllowed: true,
  delegationRefusedSeniorHalf: false,
  pickupItem: null,
  pickupItemUnit: null,
  pickupItemRequired: false,
  teamUnclaimed: 'devolver',
  teamTiers: [],
  referralMin: null,
  referralPercent: 0,
};

/** Whether the event's rules give referral rebates (a minimum and a percentage both set). */
export function referralOn(
  rules: Pick<AfterSaleRules, 'referralMin' | 'referralPercent'>,
): rules is { referralMin: number; referralPercent: number } {
  return rules.referralMin !== null && rules.referralMin > 0 && rules.referralPercent > 0;
}

/** Days a referred registration must stand (the consumer code's 7 days of withdrawal) before it counts. */
export const REFERRAL_WAIT_DAYS = 7;

/**
 * A referral's rebate in cents: `percent` of what the runner's registration paid, rounded to the cent, and
 * never above it.
 */
export function referralRebateCents(paidCents: number, percent: number): number {
  return Math.min(paidCents, Math.max(0, Math.round((paidCents * percent) / 100)));
}

/** The discount (percent) a team of `members` standing members has: the best tier it reached; 0 for none. */
export function teamTierPercent(tiers: AfterSaleRules['teamTiers'], members: number): number {
  return tiers.reduce((best, t) => (t.minMembers <= members && t.percent > best ? t.percent : best), 0);
}

/** A lot's price at a team discount, in cents (the discount rounded to the cent). */
export function teamPriceCents(fullCents: number, percent: number): number {
  return fullCents - Math.round((fullCents * percent) / 100);
}

/**
 * Why this registration may not be collected by someone else under the event's rules; null when it may.
 * Said the same to the runner who authorises and at the desk that hands the kit out.
 */
export function delegationRefusal(
  rules: Pick<AfterSaleRules, 'delegationAllowed' | 'delegationRefusedSeniorHalf'>,
  seniorHalfPrice: boolean,
): string | null {
  if (!rules.delegationAllowed) return 'Este evento não permite a retirada do kit por outra pessoa.';
  if (seniorHalfPrice && rules.delegationRefusedSeniorHalf)
    return 'Inscrições com meia-entrada 60+ só podem ter o kit retirado pelo próprio titular, com documento.';
  return null;
}

/** The moment the race starts: its first day at its time, in the store's time zone (UTC−3, no DST). */
export function eventStart(startDate: IsoDate, time: string): Date {
  return new Date(`${startDate}T${time}:00-03:00`);
}

/** A change allowed until a day (America/Fortaleza, the whole day counts); null means the deadline. */
export function withinDay(until: IsoDate | null, registrationDeadline: IsoDate, now: Date): boolean {
  return dateInTimeZone(now, STORE_TIME_ZONE) <= (until ?? registrationDeadline);
}

export type CancellationQuote =
  | { allowed: true; refundCents: number; keptCents: number; withdrawal: boolean }
  | { allowed: false; reason: string };

/**
 * What cancelling returns: within 7 days of the purchase and at least `cancelMinHours` before the
 * start, everything (CDC art. 49); otherwise what the organiser's rule says, never more than was paid
 * nor less than nothing. The race started: nothing.
 */
export function cancellationQuote(
  rules: AfterSaleRules,
  input: { paidCents: number; purchasedAt: Date; start: Date; now: Date },
): CancellationQuote {
  const { paidCents, purchasedAt, start, now } = input;
  if (now.getTime() >= start.getTime())
    return { allowed: false, reason: 'O evento já começou: a inscrição não pode mais ser cancelada.' };
  const withinWithdrawal = now.getTime() - purchasedAt.getTime() <= WITHDRAWAL_DAYS * 24 * 3600_000;
  const earlyEnough = start.getTime() - now.getTime() >= rules.cancelMinHours * 3600_000;
  if (withinWithdrawal && earlyEnough)
    return { allowed: true, refundCents: paidCents, keptCents: 0, withdrawal: true };
  if (rules.cancelAfterWindow === 'nao')
    return {
      allowed: false,
      reason: 'Pelas regras do organizador, esta inscrição não pode mais ser cancelada.',
    };
  const kept =
    rules.cancelAfterWindow === 'taxa'
      ? rules.cancelFeeCents
      : Math.round((paidCents * rules.cancelKeptPercent) / 100);
  const keptCents = Math.min(paidCents, Math.max(0, kept));
  return { allowed: true, refundCents: paidCents - keptCents, keptCents, withdrawal: false };
}

const fee = (cents: number) => (cents > 0 ? `taxa de ${formatBRL(cents)}` : 'sem taxa');
const until = (day: IsoDate | null, deadline: IsoDate) => `até ${formatIsoDateBR(day ?? deadline)}`;

/**
 * The waitlist's sentence: which categories have one (their names, when the caller knows them) and
 * how long an offered place is held.
 */
function waitlistText(rules: AfterSaleRules, categoryNames?: readonly string[]): string {
  if (rules.waitlistCategoryIds.length === 0) return 'Lista de espera: não há neste evento.';
  const which = categoryNames?.length
    ? `nas categorias ${categoryNames.join(', ')}, quando esgotadas`
    : 'nas categorias esgotadas que a oferecem';
  return `Lista de espera: ${which}, você pode entrar na fila com nome, CPF e e-mail; uma vaga liberada é oferecida ao primeiro da fila por e-mail e fica reservada por ${plural(rules.waitlistOfferHours, 'hora', 'horas')}. Sem resposta nesse prazo, ela passa ao próximo.`;
}

/**
 * The rules in plain Portuguese, one sentence each, for the regulation and registration pages.
 * `waitlistCategoryNames` names the categories with a waitlist, when the caller has them.
 */
export function afterSaleRulesText(
  rules: AfterSaleRules,
  registrationDeadline: IsoDate,
  waitlistCategoryNames?: readonly string[],
): string[] {
  const after =
    rules.cancelAfterWindow === 'nao'
      ? 'Depois disso, a inscrição não pode ser cancelada.'
      : rules.cancelAfterWindow === 'taxa'
        ? `Depois disso, você pode cancelar até o início do evento com ${fee(rules.cancelFeeCents)}, descontada do valor devolvido.`
        : `Depois disso, você pode cancelar até o início do evento; o organizador retém ${rules.cancelKeptPercent}% do valor pago.`;
  return [
    `Cancelamento: em até ${WITHDRAWAL_DAYS} dias da compra e com pelo menos ${plural(rules.cancelMinHours, 'hora', 'horas')} de antecedência da largada, você recebe de volta todo o valor pago (direito de arrependimento, art. 49 do Código de Defesa do Consumidor). ${after}`,
    rules.transferAllowed
      ? `Transferência para outra pessoa: ${until(rules.transferUntil, registrationDeadline)}, ${fee(rules.transferFeeCents)}. A nova pessoa preenche os próprios dados e aceita o termo.`
      : 'Transferência para outra pessoa: não permitida neste evento.',
    rules.categoryChangeAllowed
      ? `Troca de distância: ${until(rules.categoryChangeUntil, registrationDeadline)}, ${fee(rules.categoryChangeFeeCents)}, enquanto houver vagas. Se a nova distância custar mais no lote atual, você paga a diferença; se custar menos, ${rules.categoryChangeRefundsDifference ? 'a diferença é devolvida' : 'a diferença não é devolvida'}.`
      : 'Troca de distância: não permitida neste evento.',
    rules.sizeChangeAllowed
      ? `Troca do tamanho da camisa: ${until(rules.sizeChangeUntil, registrationDeadline)}, enquanto houver camisas do tamanho escolhido.`
      : 'Troca do tamanho da camisa: não permitida neste evento.',
    waitlistText(rules, waitlistCategoryNames),
    ...(rules.teamTiers.length
      ? [
          `Preço de equipe (inscrição com o código de uma equipe, sem cupom nem meia-entrada): ${rules.teamTiers
            .map((t) => `a partir de ${t.minMembers} inscritos na equipe, ${t.percent}% de desconto`)
            .join(
              '; ',
            )}. Quem se inscreveu antes recebe a diferença de volta quando a equipe chega a uma faixa.`,
        ]
      : []),
    ...(referralOn(rules)
      ? [
          `Indicação: cada inscrito pago recebe um link; depois de ${rules.referralMin} ${rules.referralMin === 1 ? 'inscrição paga' : 'inscrições pagas'} por ele (de outras pessoas, com outro CPF e outra conta, ainda de pé ${REFERRAL_WAIT_DAYS} dias depois do pagamento), ${rules.referralPercent}% do valor pago na própria inscrição volta para quem indicou, uma vez.`,
        ]
      : []),
  ];
}

/** One line of a registration's history (registration_changes), as stored. */
export interface RegistrationChange {
  kind: 'cancelamento' | 'transferencia' | 'troca_distancia' | 'troca_tamanho' | 'diferenca_preco';
  actor: 'comprador' | 'participante' | 'loja';
  detail: unknown;
  feeCents: number;
  refundCents: number;
  createdAt: Date;
}

/**
 * A change of a registration in one Portuguese sentence, for the lookup page, the back office's
 * registration page and the participants CSV (docs/decisions/0041). Names only, never a CPF.
 */
export function registrationChangeText(c: RegistrationChange): string {
  const d = (c.detail ?? {}) as Record<string, unknown>;
  const who =
    c.actor === 'participante'
      ? 'pelo participante (link)'
      : c.actor === 'loja'
        ? 'pela equipe'
        : 'pela conta que comprou';
  const money = [
    // A cancellation keeps its fee, and so does a change of distance paid by no charge: the fee came
    // out of the difference returned (docs/decisions/0056); only a charge's amount was "pago".
    c.feeCents > 0
      ? `${c.kind === 'cancelamento' || (c.kind === 'troca_distancia' && d.cobranca == null) ? 'retido' : 'pago'} ${formatBRL(c.feeCents)}`
      : '',
    c.refundCents > 0 ? `devolvido ${formatBRL(c.refundCents)}` : '',
  ]
    .filter(Boolean)
    .join(', ');
  const what =
    c.kind === 'cancelamento'
      ? 'Cancelada'
      : c.kind === 'transferencia'
        ? `Transferida de ${String(d.de ?? '?')} para ${String(d.para ?? '?')}`
        : c.kind === 'troca_distancia'
          ? `Distância trocada${typeof d.para_nome === 'string' ? ` para ${d.para_nome}` : ''}`
          : c.kind === 'diferenca_preco'
            ? `Diferença do preço especial${typeof d.regra === 'string' ? ` (${d.regra})` : ''} paga: a inscrição passa ao preço do lote,`
            : `Camisa trocada de ${String(d.de ?? '?')} para ${String(d.para ?? '?')}`;
  return `${formatStoreDateTime(c.createdAt)}: ${what} ${who}${money ? ` (${money})` : ''}.`;
}
