import { REFERRAL_WAIT_DAYS, referralOn, referralRebateCents } from '@passada/core/after-sale';
import { centsToReais } from '@passada/core/money';
import type { Db, Tx } from '../../db/client.ts';
import type { RefundRow } from '../payments/payments.service.ts';
import { findRules } from './after-sale.repository.ts';
import { referralRebateMail } from './after-sale-mail.ts';
import * as repo from './referrals.repository.ts';
import * as regRepo from './registrations.repository.ts';
import type { RegistrationsServiceDeps } from './registrations-context.ts';
import { mac128, macMatches } from './signed-token.ts';

/**
 * Referral links (docs/decisions/0086). Each paid registration of an event with a referral rule has a
 * link, `<registration>-<HMAC, 128 bits>` signed with CHECKIN_TOKEN_SECRET over a message of its own
 * (`referral:` in front, so no other signed text passes for it). A registration made through it records
 * who referred it; once `referralMin` of those are counted, `referralPercent` of what the referrer paid
 * goes back to their charge, once, by the refund path every other partial refund takes.
 *
 * What counts (the fraud rules, checked when counting, never when the link is used): the referred
 * registration stands (not cancelled), paid more than nothing, from another CPF, another account and
 * another charge than the referrer's, and has stood REFERRAL_WAIT_DAYS since it was paid (the consumer
 * code's withdrawal: friends registered and withdrawn within the week never earn a refund). The card is
 * not compared: the shop never sees a card's number (the provider's token only), and the other account
 * and CPF already exclude paying for oneself.
 */
const CODE = /^(\d{1,9})-([A-Za-z0-9_-]{22})$/;

const signature = (secret: string, registrationId: number) => mac128(secret, `referral:${registrationId}`);

/** A registration that may refer others: standing and paid more than nothing. */
const canRefer = (r: { cancelledAt: Date | null; totalCents: number }) => !r.cancelledAt && r.totalCents > 0;

export function createReferrals(
  deps: Pick<RegistrationsServiceDeps, 'db' | 'env' | 'now' | 'log' | 'payments' | 'jobs' | 'mail'> & {
    events: Pick<RegistrationsServiceDeps['events'], 'findEventRow'>;
  },
) {
  const codeOf = (registrationId: number) =>
    `${registrationId}-${signature(deps.env.CHECKIN_TOKEN_SECRET, registrationId).toString('base64url')}`;

  const linkOf = (eventId: number, registrationId: number) =>
    `${deps.env.publicUrl}/eventos/register/${eventId}?indicacao=${codeOf(registrationId)}`;

  /**
   * The registration a code names, when it may refer a new one of `eventId`: signed by us, standing,
   * paid, of the same event and not the new runner's own (same CPF or same account). Anything else is
   * no referral: the runner registers all the same, and nobody learns whose link it was.
   */
  async function referrerOf(
    tx: Tx,
    code: string | undefined,
    who: { eventId: number; cpf: string; userId: number },
  ): Promise<number | null> {
    const match = code ? CODE.exec(code) : null;
    if (!match) return null;
    const id = Number(match[1]);
    if (!macMatches(match[2]!, signature(deps.env.CHECKIN_TOKEN_SECRET, id))) return null;
    const referrer = await repo.findReferrer(tx, id);
    if (
      !referrer ||
      referrer.eventId !== who.eventId ||
      !canRefer(referrer) ||
      referrer.cpf === who.cpf ||
      referrer.accountUserId === who.userId
    )
      return null;
    return referrer.id;
  }

  /** Referred registrations paid up to this moment have passed their withdrawal days and count. */
  const countedBefore = () => new Date(deps.now().getTime() - REFERRAL_WAIT_DAYS * 86_400_000);

  /**
   * What "Minhas inscrições" shows of each registration's link: null where the event has no referral
   * or the registration cannot refer (cancelled, free).
   */
  async function statusOf(
    db: Db,
    rows: Array<{
      id: number;
      eventId: number;
      totalCents: number;
      cancelledAt: Date | null;
      referralRebatedAt: Date | null;
      referralRebateCents: number | null;
    }>,
  ) {
    const rules = new Map<number, Awaited<ReturnType<typeof findRules>>['rules']>();
    for (const eventId of new Set(rows.map((r) => r.eventId)))
      rules.set(eventId, (await findRules(db, eventId)).rules);
    const eligible = rows.flatMap((r) => {
      const rule = rules.get(r.eventId);
      return rule && referralOn(rule) && canRefer(r) ? [{ row: r, rule }] : [];
    });
    const counts = await repo.referredCounts(
      db,
      eligible.map((e) => e.row.id),
      countedBefore(),
    );
    return new Map(
      eligible.map(({ row, rule }) => {
        const count = counts.get(row.id) ?? { counted: 0, waiting: 0 };
        return [
          row.id,
          {
            link: linkOf(row.eventId, row.id),
            minimo: rule.referralMin,
            percentual: rule.referralPercent,
            confirmadas: count.counted,
            aguardando: count.waiting,
            devolvido:
              row.referralRebatedAt && row.referralRebateCents ? centsToReais(row.referralRebateCents) : null,
          },
        ] as const;
      }),
    );
  }

  /**
   * Every referrer whose counted referrals reached the event's minimum and who had no rebate yet: the
   * rebate refunded on their own charge, under their row's lock, once (its refund id is the
   * registration's), never above what the registration paid nor what is left on the charge; the
   * registration's total goes down by it, so a later cancellation refunds only the rest. Run hourly by
   * `registrations.referral-rebates`; answers how many were refunded.
   */
  async function payRebates(): Promise<number> {
    const due = await repo.referrersDue(deps.db, countedBefore());
    let paid = 0;
    for (const candidate of due) {
      const refund = await deps.db.transaction(async (tx): Promise<RefundRow | null> => {
        const row = await repo.lockReferrer(tx, candidate.id);
        if (!row || row.cancelledAt || row.referralRebatedAt) return null;
        const { rules } = await findRules(tx, row.eventId);
        if (!referralOn(rules)) return null;
        const counted = (await repo.referredCounts(tx, [row.id], countedBefore())).get(row.id)?.counted ?? 0;
        if (counted < rules.referralMin) return null;
        const [charge] = await deps.payments.paidAndRefunded(tx, [row.chargeId]);
        const left = charge ? charge.amountCents - charge.refundedCents : 0;
        const amount = Math.min(referralRebateCents(row.totalCents, rules.referralPercent), left);
        await repo.markRebated(tx, row.id, deps.now(), row.totalCents - amount, amount);
        if (amount <= 0) return null;
        const refund = await deps.payments.refundPart(tx, row.chargeId, {
          refundId: `indicacao${row.id}`,
          amountCents: amount,
          reason: `Indicação: ${counted} inscrições pagas pelo seu link; ${rules.referralPercent}% da sua inscrição de volta.`,
        });
        // The runner is told what came back and why (the refund alone says only an amount).
        await deps.jobs.send('mail.referral-rebate', { registrationId: row.id }, { tx });
        return refund;
      });
      if (refund) {
        await deps.payments.sendRefund(refund);
        paid += 1;
      }
    }
    if (paid) deps.log.info({ paid }, 'referral rebates refunded');
    return paid;
  }

  /** The e-mail of a rebate paid: to the runner, with the amount, how it returns, and the event. */
  async function sendRebateMail(registrationId: number): Promise<void> {
    const row = await regRepo.findById(deps.db, registrationId);
    if (!row?.referralRebatedAt || !row.referralRebateCents) return;
    const event = await deps.events.findEventRow(row.eventId);
    await deps.mail.send(
      referralRebateMail({
        env: deps.env,
        to: { name: row.fullName, email: row.email },
        registrationId: row.id,
        eventName: event?.name ?? 'a corrida',
        rebateCents: row.referralRebateCents,
      }),
    );
  }

  return { codeOf, linkOf, referrerOf, statusOf, payRebates, sendRebateMail };
}

export type Referrals = ReturnType<typeof createReferrals>;
