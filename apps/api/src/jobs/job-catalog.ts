import type { CarrierReturn } from '@passada/core/contracts/returns';
/**
 * How a queue treats its jobs. `short` keeps at most one waiting job per `singletonKey` (a second
 * `send` with the same key is dropped while the first waits); `singleton` runs at most one per key at
 * a time; `stately` both. With `standard` a `singletonKey` dedupes nothing. A job whose process died
 * mid-run counts as running until `expireInSeconds` passes and pg-boss's maintenance (every two
 * minutes) fails it, so `singleton` and `stately` queues stall that long after a crash.
 */
export type QueuePolicy = 'standard' | 'short' | 'singleton' | 'stately';

/** One kind of job: its retry policy here, its payload type as the type parameter. */
export interface JobDefinition<TData extends object> {
  policy?: QueuePolicy;
  /** Attempts after the first before the job ends `failed` (default 5). */
  retryLimit?: number;
  /** Base wait before a retry; it doubles at each attempt, with jitter (default 30 s). */
  retryDelaySeconds?: number;
  /** How long a handler may run before the attempt counts as failed (default 15 min). */
  expireInSeconds?: number;
  /** Never set: it only carries the payload type, so `send` and `work` agree on it. */
  readonly payload?: TData;
}

/** Names mapped to their definitions; the app's is `jobCatalog`, tests declare their own. */
export type JobCatalog = Record<string, JobDefinition<object>>;

export type JobName<C extends JobCatalog> = keyof C & string;
export type JobData<C extends JobCatalog, N extends JobName<C>> =
  C[N] extends JobDefinition<infer T> ? T : never;

export function defineJob<TData extends object>(
  definition: Omit<JobDefinition<TData>, 'payload'> = {},
): JobDefinition<TData> {
  return definition;
}

/**
 * Every job the app runs. Payloads carry ids, never personal data: they sit in the database as
 * plain JSON and may show in logs. Handlers are registered by the modules with `app.jobs.work`.
 */
export const jobCatalog = {
  /** The confirmation e-mail of a paid order. */
  'mail.order-confirmation': defineJob<{ orderId: number }>({ retryLimit: 8, retryDelaySeconds: 60 }),
  /**
   * The e-mail confirming a withdrawal, return or exchange request, or telling where it stands: with
   * `eventId`, the state of that history row, sent once (the row keeps `mailed_at`); without it (a
   * difference paid), where the request stands when sent.
   */
  'mail.return-update': defineJob<{ returnId: number; eventId?: number }>({
    retryLimit: 8,
    retryDelaySeconds: 60,
  }),
  /** Daily: exchanges never posted within the code's validity are refused and their held units released. */
  'returns.lapse-exchanges': defineJob<Record<string, never>>({ retryLimit: 2, retryDelaySeconds: 300 }),
  /** Hourly: the carrier's tracking of sent return codes moves posted requests to `postada`. */
  'returns.follow-postings': defineJob<Record<string, never>>({ retryLimit: 0 }),
  /**
   * Staff's proposal of an addition to an order (docs/decisions/0087, later): the buyer's e-mail with what
   * was proposed, its price that day and the link that opens it filled in.
   */
  'mail.order-addition-offer': defineJob<{
    orderId: number;
    lines: string;
    totalCents: number;
    link: string;
  }>({ retryLimit: 8, retryDelaySeconds: 60 }),
  /** The e-mail telling a buyer their order moved (em separação, enviado, entregue, cancelado). */
  'mail.order-status': defineJob<{ orderId: number; status: string }>({
    retryLimit: 8,
    retryDelaySeconds: 60,
  }),
  /**
   * Finishers' results and certificates (PDF attached) by e-mail, queued by a publication for the bibs
   * whose result is new or changed, up to 25 bibs a job (decision 0064, later): a worker takes one job a
   * poll, so one job a bib would send a race's thousands of certificates at one a second. The job reads
   * each result as published when it runs.
   */
  'mail.result-certificate': defineJob<{ eventId: number; bibs: number[] }>({
    retryLimit: 8,
    retryDelaySeconds: 60,
  }),
  /** The confirmation e-mail of an event registration. */
  'mail.registration-confirmation': defineJob<{ registrationId: number }>({
    retryLimit: 8,
    retryDelaySeconds: 60,
  }),
  /** The WhatsApp notice of a refused proof, to a runner who opted in (decision 0068). */
  'whatsapp.proof-refused': defineJob<{ registrationId: number }>({
    retryLimit: 8,
    retryDelaySeconds: 60,
  }),
  /** A proof's file erased after the transaction that let it go committed (decision 0068). */
  'privacy.proof-file': defineJob<{ fileName: string }>({
    retryLimit: 8,
    retryDelaySeconds: 60,
  }),
  /** The e-mail telling the runner (and the buyer) that staff refused a price rule's proof (decision 0068). */
  'mail.proof-refused': defineJob<{ registrationId: number }>({
    retryLimit: 8,
    retryDelaySeconds: 60,
  }),
  /** The e-mail telling a participant (and the buyer) that staff cancelled a registration. */
  'mail.registration-cancelled': defineJob<{ registrationId: number }>({
    retryLimit: 8,
    retryDelaySeconds: 60,
  }),
  /** The e-mail telling a registration's previous holder that its transfer was completed. */
  'mail.registration-transferred': defineJob<{ transferId: number }>({
    retryLimit: 8,
    retryDelaySeconds: 60,
  }),
  /** The e-mail telling a participant (and the buyer) that a registration's distance or shirt size changed. */
  'mail.registration-changed': defineJob<{ changeId: number }>({
    retryLimit: 8,
    retryDelaySeconds: 60,
  }),
  /** The e-mail telling a payer their Pix was returned (paid after its units or place went to someone else). */
  'mail.refund-notice': defineJob<{ chargeId: number }>({ retryLimit: 8, retryDelaySeconds: 60 }),
  /**
   * Every minute and once at start: ask the provider about every open or recently expired charge.
   * `short`, not `singleton`: a run that dies with its process (SIGKILL, out of memory) stays active
   * until it expires, and under `singleton` it held back every later scheduled run for those minutes,
   * leaving charges past their deadline open (src/test/crash.pg.test.ts). Two runs at once are safe,
   * since each move locks its charge row; at most one more waits.
   */
  'charges.reconcile-all': defineJob<Record<string, never>>({
    policy: 'short',
    retryLimit: 0,
    expireInSeconds: 300,
  }),
  /** Ask the payment provider for a charge's status (webhook lost or late). */
  'charges.reconcile': defineJob<{ chargeId: number }>({ policy: 'short', retryDelaySeconds: 30 }),
  /**
   * Remove at the provider a Pix ended because what it paid for no longer stands, or one whose creation
   * went unanswered; tried again (10 s, doubling, ten times: hours) until the provider answers.
   */
  'charges.remove': defineJob<{ chargeId: number }>({
    policy: 'short',
    retryLimit: 10,
    retryDelaySeconds: 10,
  }),
  /** Expire an unpaid charge at its deadline and give back what it held. */
  'charges.expire': defineJob<{ chargeId: number }>({ policy: 'short', retryDelaySeconds: 10 }),
  /** A password-reset link for an account (its e-mail is read when the job runs). */
  'mail.password-reset': defineJob<{ userId: number }>({ retryLimit: 3, retryDelaySeconds: 30 }),
  /**
   * A one-time sign-in link for an account whose blocked sign-in had the right password (its e-mail is
   * read when the job runs). `short` with the user id as key: repeated clicks queue one job, not many.
   */
  'mail.login-link': defineJob<{ userId: number }>({ policy: 'short', retryLimit: 3, retryDelaySeconds: 30 }),
  /** A security notice (e-mail or password changed) to the address stored in `account_notices`. */
  'mail.account-notice': defineJob<{ noticeId: number }>({ retryLimit: 8, retryDelaySeconds: 60 }),
  /** The link confirming an account's e-mail (docs/decisions/0057), for an `email_confirmations` row. */
  'mail.email-confirmation': defineJob<{ confirmationId: number }>({ retryLimit: 5, retryDelaySeconds: 60 }),
  /**
   * Daily: deletes personal data past its retention period (docs/decisions/0016-hardening.md).
   * `short`, like `charges.reconcile-all`: under `singleton` a run that died with its process held back
   * the next one (and its own retry) until it expired. Two runs at once are safe: each step is one
   * `DELETE … WHERE` older than a limit, which removes the same rows whoever runs it.
   */
  'privacy.retention': defineJob<Record<string, never>>({ policy: 'short', retryLimit: 2 }),
  /**
   * Daily: erases the PCD answer (health data, LGPD art. 11) of registrations whose event ended more than
   * `PCD_RETENTION_DAYS_AFTER_EVENT` days ago; the registration stays. `short` like `privacy.retention`;
   * two runs at once are safe (one conditional `UPDATE`).
   */
  'privacy.health-data': defineJob<Record<string, never>>({ policy: 'short', retryLimit: 2 }),
  /**
   * Daily (docs/decisions/0047): deletes the waitlist entries of events that ended more than
   * `WAITLIST_RETENTION_DAYS_AFTER_EVENT` days ago and erases the CPFs and e-mails of the registration
   * transfers of events ended more than `TRANSFER_RETENTION_DAYS_AFTER_EVENT` days ago, audited.
   * `short` like `privacy.retention`; two runs at once are safe (conditional statements).
   */
  'privacy.runner-data': defineJob<Record<string, never>>({ policy: 'short', retryLimit: 2 }),
  /**
   * Daily (docs/decisions/0051, 0061): blanks the personal fields of the lottery entries of events that
   * ended more than `LOTTERY_RETENTION_DAYS_AFTER_EVENT` days ago (ids and ranking kept), audited.
   * `short` like `privacy.retention`; two runs at once are safe (one conditional statement).
   */
  'privacy.lottery-data': defineJob<Record<string, never>>({ policy: 'short', retryLimit: 2 }),
  /**
   * Daily (docs/decisions/0050): anonymises the buyers and participants of orders and registrations
   * past `SALES_RETENTION_YEARS` (counted from the year after the sale or the event), clears their
   * charges' drafts and deletes audit-log lines as old, audited with counts. `short` like
   * `privacy.retention`; two runs at once are safe (conditional statements).
   */
  'privacy.sales-retention': defineJob<Record<string, never>>({ policy: 'short', retryLimit: 2 }),
  /** The Pix copia e cola of a charge just created, on WhatsApp to a payer who opted in. */
  'whatsapp.pix-code': defineJob<{ chargeId: number }>({ retryLimit: 3, retryDelaySeconds: 20 }),
  /** The WhatsApp confirmation of a registration whose participant opted in (docs/decisions/0045). */
  'whatsapp.registration-confirmed': defineJob<{ registrationId: number }>({
    retryLimit: 8,
    retryDelaySeconds: 60,
  }),
  /**
   * Daily: queues the kit-pickup reminder of every registration that opted in, for events starting
   * in WHATSAPP_KIT_REMINDER_DAYS days. `short` like `privacy.retention`; each registration is
   * stamped by one conditional `UPDATE`, so two runs queue each reminder once.
   */
  'whatsapp.kit-reminders': defineJob<Record<string, never>>({ policy: 'short', retryLimit: 2 }),
  /**
   * The kit desk's change log pruned to its last row per event, every night (docs/decisions/0063, later):
   * the snapshot's version is that row's id, so desks holding it keep their 304.
   */
  'checkin.prune-desk-changes': defineJob<Record<string, never>>({ policy: 'short', retryLimit: 2 }),
  /**
   * Every quarter hour: a team's prepaid places nobody claimed by the registration deadline, refunded
   * to the captain or given back to sale as the event's rules say (decision 0073).
   */
  'registrations.team-places-close': defineJob<Record<string, never>>({ policy: 'short', retryLimit: 2 }),
  /** Every minute: teams' quotas whose end came give their unused places back to the public (0076). */
  'registrations.team-quotas-end': defineJob<Record<string, never>>({ policy: 'short', retryLimit: 2 }),
  /** A captain's invitation to a member from a list (decision 0075), while it waits for an answer. */
  'mail.team-invite': defineJob<{ inviteId: number }>({ retryLimit: 8, retryDelaySeconds: 60 }),
  /** Every night: invitations nobody answered in `TEAM_INVITE_DAYS`, erased with the name and e-mail. */
  'privacy.team-invites': defineJob<Record<string, never>>({ policy: 'short', retryLimit: 2 }),
  /**
   * A member priced by the team's tiers was confirmed: earlier members refunded down to the tier the
   * team reached (decision 0074); one queued per team and event, it reckons them all.
   */
  'registrations.team-tier': defineJob<{ teamId: number; eventId: number }>({
    policy: 'short',
    retryLimit: 5,
    retryDelaySeconds: 30,
  }),
  /**
   * Every hour: referrers whose referrals counted (paid, standing, past their days of withdrawal) get
   * their rebate back on their own charge, once (decision 0086).
   */
  'registrations.referral-rebates': defineJob<Record<string, never>>({ policy: 'short', retryLimit: 2 }),
  /** The e-mail telling a runner their referral rebate was paid (decision 0086). */
  'mail.referral-rebate': defineJob<{ registrationId: number }>({ retryLimit: 8, retryDelaySeconds: 60 }),
  /**
   * The published result on WhatsApp, with the link to the runner's page and certificate, to the
   * finishers of these bibs who opted in at registration (decision 0064, later).
   */
  'whatsapp.result-published': defineJob<{ eventId: number; bibs: number[] }>({
    retryLimit: 8,
    retryDelaySeconds: 60,
  }),
  /** One kit-pickup reminder on WhatsApp. */
  'whatsapp.kit-reminder': defineJob<{ registrationId: number }>({ retryLimit: 5, retryDelaySeconds: 60 }),
  /** A WhatsApp message telling a buyer who opted in that their order or its delivery moved. */
  'whatsapp.order-update': defineJob<{ orderId: number; what: string }>({
    retryLimit: 8,
    retryDelaySeconds: 60,
  }),
  /**
   * The waitlist's offer sweep (docs/decisions/0042-waitlist.md): expired offers pass to the next in
   * line and free places are offered. Every minute, and queued by every point that frees a place
   * (inside its transaction, so it runs after the commit). `short`: one more waiting run is enough,
   * since each run looks at every category; two at once are safe (each category under its row lock).
   */
  'waitlist.sweep': defineJob<Record<string, never>>({
    policy: 'short',
    retryLimit: 3,
    expireInSeconds: 300,
  }),
  /**
   * "Avise-me quando chegar" (docs/decisions/0069): the first in line of every colour and size back on sale
   * are told, as many as the units. Every minute, and queued by staff's stock changes. `short`: one more
   * waiting run is enough; two at once are safe (each alert taken with SKIP LOCKED).
   */
  'catalog.stock-alerts': defineJob<Record<string, never>>({
    policy: 'short',
    retryLimit: 3,
    expireInSeconds: 300,
  }),
  /**
   * Sales starting and ending (docs/decisions/0082): every minute, when a product's sale started or ended
   * in the last five minutes, the catalogue's cached answers and pages are dropped in every process, so the
   * shop shows the new price at once. `short`: one more waiting run is enough; two at once only drop the
   * caches twice.
   */
  'catalog.sale-boundaries': defineJob<Record<string, never>>({
    policy: 'short',
    retryLimit: 3,
    expireInSeconds: 120,
  }),
  /**
   * Scheduled publishing (docs/decisions/0085): every minute, each draft whose time has come is published
   * if it has a ready photo and stock, with its audit line. `short`: one more waiting run is enough; two
   * at once are safe (each product taken under its row's lock, a published one left alone).
   */
  'catalog.scheduled-publish': defineJob<Record<string, never>>({
    policy: 'short',
    retryLimit: 3,
    expireInSeconds: 120,
  }),
  /**
   * Reminders of carts and registrations left unpaid (docs/decisions/0072): every five minutes, each one
   * past staff's delay recorded and its e-mail queued. `short`: one more waiting run is enough; two at once
   * are safe (the reminder's unique key).
   */
  'orders.cart-recovery': defineJob<Record<string, never>>({
    policy: 'short',
    retryLimit: 3,
    expireInSeconds: 300,
  }),
  /** The e-mail of one reminder: the cart rebuilt with today's prices, or the registration left unpaid. */
  'mail.cart-recovery': defineJob<{ reminderId: number }>({ retryLimit: 8, retryDelaySeconds: 60 }),
  /** The same reminder by WhatsApp, to an account that ticked that opt-in (docs/decisions/0084). */
  'whatsapp.cart-recovery': defineJob<{ reminderId: number }>({ retryLimit: 8, retryDelaySeconds: 60 }),
  /** The e-mail of one alert: the product is back in the colour and size asked. */
  'mail.stock-alert': defineJob<{ alertId: number }>({ retryLimit: 8, retryDelaySeconds: 60 }),
  /** A waitlist e-mail: joining (with the link to see the position and leave) or a place offered. */
  'mail.waitlist': defineJob<{ entryId: number; kind: 'entrou' | 'oferta' }>({
    retryLimit: 8,
    retryDelaySeconds: 60,
  }),
  /** A lottery e-mail (docs/decisions/0051): the entry confirmed, or a draw's result. */
  'mail.lottery': defineJob<{ entryId: number; kind: 'inscrito' | 'sorteado' | 'nao_sorteado' }>({
    retryLimit: 8,
    retryDelaySeconds: 60,
  }),
  /**
   * Resize an uploaded photo into its six WebP/AVIF files and mark it ready (docs/decisions/0027). Its
   * worker runs one at a time in each process, so a burst of uploads never decodes side by side. A
   * file that cannot be decoded fails at once; a storage failure is retried twice, then the photo is
   * marked failed and its files removed.
   */
  'photos.process': defineJob<{ photoId: number }>({
    retryLimit: 2,
    retryDelaySeconds: 10,
    expireInSeconds: 300,
  }),
  /**
   * Every `SHIPPING_TRACKING_CRON` tick: read the tracking of every label bought and not yet delivered
   * (docs/decisions/0044). `short` like `charges.reconcile-all`; two runs at once are safe, since each
   * move locks its label row and checks the state it read is still the one stored.
   */
  'shipping.track-all': defineJob<Record<string, never>>({
    policy: 'short',
    retryLimit: 0,
    expireInSeconds: 300,
  }),
  /**
   * An order cancelled (or wholly withdrawn) before posting: cancel its shipping label at the provider
   * (docs/decisions/0048). A purchase under way or the provider down throws, and the job is retried.
   */
  'shipping.cancel-label': defineJob<{ orderId: number }>({
    retryLimit: 12,
    retryDelaySeconds: 15,
    expireInSeconds: 120,
  }),
  /** The e-mail telling a buyer their parcel is out for delivery (posted and delivered go by `mail.order-status`). */
  'mail.tracking-update': defineJob<{ orderId: number; state: string }>({
    retryLimit: 8,
    retryDelaySeconds: 60,
  }),
  /**
   * Notas fiscais (docs/decisions/0043). Each handler is idempotent by the document's reference: the
   * provider is asked about it before anything is sent, so a retry after a crash never issues twice.
   * A nota still processing or a provider down throws, and the job is retried with a doubling delay.
   */
  'fiscal.issue-order': defineJob<{ orderId: number }>({
    retryLimit: 12,
    retryDelaySeconds: 15,
    expireInSeconds: 120,
  }),
  /** A team's places paid in one purchase: its NFS-e, to the company's CNPJ when named (decision 0077). */
  'fiscal.issue-team-places': defineJob<{ batchId: number }>({
    retryLimit: 12,
    retryDelaySeconds: 15,
    expireInSeconds: 120,
  }),
  /** Unclaimed team places refunded at the close: the purchase's NFS-e replaced by one of what was kept. */
  'fiscal.team-places-reduced': defineJob<{ batchId: number }>({
    retryLimit: 12,
    retryDelaySeconds: 15,
    expireInSeconds: 120,
  }),
  'fiscal.issue-registration': defineJob<{ registrationId: number }>({
    retryLimit: 12,
    retryDelaySeconds: 15,
    expireInSeconds: 120,
  }),
  /** A document staff asked again for, or one still pending after a while. */
  'fiscal.process': defineJob<{ documentId: number }>({
    retryLimit: 12,
    retryDelaySeconds: 15,
    expireInSeconds: 120,
  }),
  /** An order cancelled before shipping: cancel its NF-e (24 h), or issue a devolução after that. */
  'fiscal.cancel-order': defineJob<{ orderId: number }>({
    retryLimit: 12,
    retryDelaySeconds: 15,
    expireInSeconds: 120,
  }),
  /** Units swapped before shipping: the NF-e made before the swap cancelled and issued again (0065, later). */
  'fiscal.order-swapped': defineJob<{ orderId: number; swappedAt: string }>({
    retryLimit: 12,
    retryDelaySeconds: 15,
    expireInSeconds: 120,
  }),
  'fiscal.cancel-registration': defineJob<{ registrationId: number }>({
    retryLimit: 12,
    retryDelaySeconds: 15,
    expireInSeconds: 120,
  }),
  /** A return refunded: the devolução NF-e of what came back. */
  'fiscal.return-refunded': defineJob<{ returnId: number }>({
    retryLimit: 12,
    retryDelaySeconds: 15,
    expireInSeconds: 120,
  }),
  /**
   * Staff refunded part of an order with nothing coming back (a price reduced after the sale): the nota
   * de crédito of the IBS/CBS its NF-e declared (docs/decisions/0059, later).
   */
  'fiscal.order-reduced': defineJob<{
    orderId: number;
    refundId: string;
    amountCents: number;
    /** A parcel the carrier brought back: the nota of its return instead (tpNFCredito 03 / 06). */
    carrierReturn?: CarrierReturn;
  }>({
    retryLimit: 12,
    retryDelaySeconds: 15,
    expireInSeconds: 120,
  }),
  /** An exchange shipped: the devolução NF-e of the units that came back and the NF-e of the replacement. */
  'fiscal.exchange-shipped': defineJob<{ returnId: number }>({
    retryLimit: 12,
    retryDelaySeconds: 15,
    expireInSeconds: 120,
  }),
  /**
   * On the 1st (NFSE_GROUPING=event_month): one NFS-e per event for the month just over
   * (docs/decisions/0049); each nota is then issued by its own `fiscal.process` job.
   */
  'fiscal.issue-event-month': defineJob<Record<string, never>>({
    policy: 'short',
    retryLimit: 6,
    retryDelaySeconds: 300,
  }),
  /** Every 15 minutes: documents still pending after their job's retries get a new job. `short`, like the other schedules. */
  'fiscal.retry-pending': defineJob<Record<string, never>>({ policy: 'short', retryLimit: 0 }),
  /** The e-mail with an authorised nota's PDF and XML links. */
  'mail.fiscal-document': defineJob<{ documentId: number }>({ retryLimit: 8, retryDelaySeconds: 60 }),
} satisfies JobCatalog;

export type AppJobCatalog = typeof jobCatalog;
