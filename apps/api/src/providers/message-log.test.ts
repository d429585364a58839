import { asc } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../db/client.ts';
import { messageLog } from '../db/schema/index.ts';
import { defineJob } from '../jobs/job-catalog.ts';
import { createJobs } from '../jobs/jobs.ts';
import { createTestDatabase } from '../test/test-app.ts';
import type { MailMessage, MailProvider } from './mail/index.ts';
import { loggedMail, purgeMessageLog } from './message-log.ts';

const catalog = { 'test.mail': defineJob<{ n: number }>({ retryLimit: 2, retryDelaySeconds: 1 }) };
const silent = { info: () => {}, warn: () => {}, error: () => {} };

describe('the message log', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.close());

  const rows = () =>
    database.db
      .select({
        kind: messageLog.kind,
        recipient: messageLog.recipient,
        status: messageLog.status,
        attempts: messageLog.attempts,
        error: messageLog.error,
        jobId: messageLog.jobId,
      })
      .from(messageLog)
      // By recipient: the two of one job are sent at once, so their ids come in either order (PostgreSQL).
      .orderBy(asc(messageLog.recipient), asc(messageLog.id));

  it('records each recipient of a job once, adds the retries to it, and never sends twice to one already reached', async () => {
    const delivered: string[] = [];
    let refusals = 1;
    const smtp: MailProvider = {
      name: 'smtp',
      async send(message: MailMessage) {
        if (message.to === 'b@example.com' && refusals-- > 0) {
          throw Object.assign(new Error('550 mailbox unavailable'), { code: 'EENVELOPE', responseCode: 550 });
        }
        delivered.push(message.to);
      },
    };
    const mail = loggedMail(smtp, database.db);
    const jobs = createJobs({ database, catalog, work: true, pollSeconds: 0.5, log: silent });
    jobs.work('test.mail', async () => {
      // Like the registration confirmation: every recipient tried, any failure retries the job.
      const results = await Promise.allSettled(
        ['a@example.com', 'b@example.com'].map((to) =>
          mail.send({ to, subject: 'Oi', text: 'Corpo secreto' }),
        ),
      );
      const failed = results.find((r) => r.status === 'rejected');
      if (failed) throw (failed as PromiseRejectedResult).reason;
    });
    await jobs.start();
    try {
      await jobs.send('test.mail', { n: 1 });
      await vi.waitFor(
        async () => {
          expect((await rows()).map((r) => [r.recipient, r.status, r.attempts])).toEqual([
            ['a@example.com', 'sent', 1],
            ['b@example.com', 'sent', 2],
          ]);
        },
        { timeout: 45_000, interval: 200 },
      );
    } finally {
      await jobs.stop({ graceful: true });
    }
    // a@ was reached on the first run: the retry went to b@ only.
    expect(delivered).toEqual(['a@example.com', 'b@example.com']);
    const all = await rows();
    expect(all.every((r) => r.kind === 'test.mail' && r.jobId === all[0]!.jobId)).toBe(true);
    // A later success clears nothing of the record but the reason.
    expect(all[1]!.error).toBeNull();
  });

  it('keeps why a message failed (class, code, the server answer), never its body', async () => {
    const mail = loggedMail(
      {
        name: 'smtp',
        send: async () => {
          throw Object.assign(new Error('550 5.1.1 user unknown'), { code: 'EENVELOPE', responseCode: 550 });
        },
      },
      database.db,
    );
    await expect(
      mail.send({ to: 'c@example.com', subject: 'Pedido', text: 'CPF 403.644.788-29' }),
    ).rejects.toThrow('user unknown');
    const row = (await rows()).find((r) => r.recipient === 'c@example.com')!;
    expect(row).toMatchObject({ kind: 'direto', jobId: null, status: 'failed', attempts: 1 });
    expect(row.error).toBe('Error EENVELOPE 550: 550 5.1.1 user unknown');
    expect(JSON.stringify(await rows())).not.toContain('403.644.788-29');
  });

  it('deletes the records older than the retention period, and only those', async () => {
    const before = (await rows()).length;
    expect(before).toBeGreaterThan(0);
    const now = new Date();
    expect(await purgeMessageLog(database.db, now, 180)).toBe(0);
    expect(await purgeMessageLog(database.db, new Date(now.getTime() + 181 * 86_400_000), 180)).toBe(before);
    expect(await rows()).toEqual([]);
  });
});
