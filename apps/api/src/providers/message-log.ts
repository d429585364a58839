import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { messageLog, whatsappOptOuts } from '../db/schema/index.ts';
import { currentJob } from '../jobs/job-context.ts';
import type { MailProvider } from './mail/mail.provider.ts';
import type { WhatsAppProvider } from './whatsapp/whatsapp.provider.ts';

type Channel = (typeof messageLog.$inferInsert)['channel'];

/**
 * Why a send failed, as the log keeps it: the error's class, its code and the service's answer
 * (SMTP reply, Graph API error), never a message body. At most 500 characters.
 */
export function failureReason(err: unknown): string {
  if (!(err instanceof Error)) return String(typeof err);
  const e = err as Error & { code?: unknown; responseCode?: unknown };
  const parts = [e.name, e.code, e.responseCode].filter((p) => p !== undefined && p !== '').map(String);
  return `${parts.join(' ')}: ${e.message}`.slice(0, 500);
}

/**
 * Sends one message and records it in `message_log` (docs/decisions/0045). Inside a job the row is
 * keyed by the job and the recipient: a retry adds an attempt to it, and a recipient the job already
 * reached is not sent twice when the job runs again for another that failed.
 */
export async function deliverLogged(
  db: Db,
  message: { channel: Channel; recipient: string },
  send: () => Promise<{ id?: string } | undefined>,
  /** Checked first: a reason not to send at all (recorded as `opted_out`), or null. */
  refused?: () => Promise<string | null>,
): Promise<void> {
  const job = currentJob();
  const key = job
    ? and(
        eq(messageLog.jobId, job.id),
        eq(messageLog.channel, message.channel),
        eq(messageLog.recipient, message.recipient),
      )
    : undefined;
  if (key) {
    const [before] = await db.select({ status: messageLog.status }).from(messageLog).where(key);
    if (before?.status === 'sent') return;
  }
  const record = async (
    status: 'sent' | 'failed' | 'opted_out',
    error: string | null,
    providerMessageId: string | null = null,
  ) => {
    const row = {
      channel: message.channel,
      recipient: message.recipient,
      kind: job?.name ?? 'direto',
      jobId: job?.id ?? null,
      status,
      error,
      providerMessageId,
    };
    if (!job) {
      await db.insert(messageLog).values(row);
      return;
    }
    await db
      .insert(messageLog)
      .values(row)
      .onConflictDoUpdate({
        target: [messageLog.jobId, messageLog.channel, messageLog.recipient],
        set: {
          status,
          error,
          providerMessageId,
          attempts: sql`${messageLog.attempts} + 1`,
          updatedAt: sql`now()`,
        },
      });
  };
  const refusal = refused ? await refused() : null;
  if (refusal) {
    await record('opted_out', refusal);
    return;
  }
  let answer: { id?: string } | undefined;
  try {
    answer = await send();
  } catch (err) {
    await record('failed', failureReason(err));
    throw err;
  }
  await record('sent', null, answer?.id || null);
}

/** The mail provider every module receives: the chosen one, each message recorded. */
export function loggedMail(mail: MailProvider, db: Db): MailProvider {
  return {
    name: mail.name,
    send: (message) =>
      deliverLogged(db, { channel: 'email', recipient: message.to }, async () => {
        await mail.send(message);
        return undefined;
      }),
  };
}

/**
 * Whether a WhatsApp number asked to stop (`whatsapp_opt_outs`: the webhook's PARAR or the shop's
 * record of a request that came another way) after the consent a message relies on: then nothing
 * more is sent to it on that consent. A consent given after the opt-out (the person ticked the opt-in
 * again) sends again; without a consent time any opt-out blocks.
 */
export async function whatsappOptedOut(db: Db, phone: string, consentAt?: Date | null): Promise<boolean> {
  const [row] = await db
    .select({ requestedAt: whatsappOptOuts.requestedAt })
    .from(whatsappOptOuts)
    .where(eq(whatsappOptOuts.phone, phone));
  if (!row) return false;
  return !(consentAt && consentAt.getTime() > row.requestedAt.getTime());
}

/**
 * The WhatsApp provider every module receives: the chosen one, each message recorded with the id the
 * Cloud API answered (the delivery webhook updates that row), and never to a number that asked to stop
 * (recorded as `opted_out`, answered with an empty id).
 */
export function loggedWhatsApp(whatsapp: WhatsAppProvider, db: Db): WhatsAppProvider {
  return {
    name: whatsapp.name,
    async send(message) {
      let answer = { id: '' };
      await deliverLogged(
        db,
        { channel: 'whatsapp', recipient: message.to },
        async () => {
          const { consentAt: _, ...toSend } = message;
          answer = await whatsapp.send(toSend);
          return answer;
        },
        async () =>
          (await whatsappOptedOut(db, message.to, message.consentAt))
            ? 'O número pediu para não receber mais mensagens pelo WhatsApp.'
            : null,
      );
      return answer;
    },
  };
}

/** Deletes the records older than `days` (MESSAGE_LOG_RETENTION_DAYS); answers how many went. */
export async function purgeMessageLog(db: Db, now: Date, days: number): Promise<number> {
  const removed = await db
    .delete(messageLog)
    .where(lt(messageLog.updatedAt, new Date(now.getTime() - days * 86_400_000)))
    .returning({ id: messageLog.id });
  return removed.length;
}
