import { addDays } from '@passada/core/calendar';
import { PCD_CONSENT } from '@passada/core/contracts/consents';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, registrations } from '../../db/schema/index.ts';
import { createUserAndToken } from '../../test/factories/accounts.ts';
import { makeEvent } from '../../test/factories/events.ts';
import { createStaffAndLogin } from '../../test/factories/painel.ts';
import { simulatePixPaid } from '../../test/factories/payments.ts';
import { participant, registrationPix } from '../../test/factories/registrations.ts';
import { useClockedTestApp } from '../../test/test-app.ts';
import { untilJobsDone } from '../../test/wait-until.ts';

// 09:00 in Fortaleza on 22 November 2026.
const START = new Date('2026-11-22T12:00:00Z');
const TODAY = '2026-11-22';
const noonOf = (date: string) => new Date(`${date}T15:00:00Z`);

describe('health data (PCD) kept only until the event is over', () => {
  const t = useClockedTestApp(START, { env: { PCD_RETENTION_DAYS_AFTER_EVENT: '30' } });

  async function runJob() {
    await t.app.jobs.send('privacy.health-data', {});
    // The queue runs it within a poll; its effect (or none) is read after the job left the queue.
    await untilJobsDone(t.app.db, 'privacy.health-data');
  }

  const row = async (id: number) =>
    (await t.app.db.select().from(registrations).where(eq(registrations.id, id)))[0]!;

  it('erases the PCD answer 30 days after the event ended, and the registration stays', async () => {
    const user = await createUserAndToken(t.app);
    const event = await makeEvent(t.app.db, { today: TODAY, offersPcd: true });
    // Health data is asked with its own consent (LGPD art. 11 I): without it, nothing is created.
    const unconsented = participant(event, [event.days[0]!.categories[0]!.id], { pcd: true });
    const refused = await registrationPix(t.app, unconsented, 89.9, user.headers);
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('Para se inscrever como PCD, autorize o uso desta informação.');

    const draft = participant(event, [event.days[0]!.categories[0]!.id], {
      pcd: true,
      pcd_consentimento: true,
    });
    const pix = await registrationPix(t.app, draft, 89.9, user.headers);
    expect(pix.statusCode).toBe(201);
    const paid = await simulatePixPaid(t.app, pix.json().txid);
    const id = paid.json().inscricao_id as number;
    expect(await row(id)).toMatchObject({
      pcd: true,
      pcdErasedAt: null,
      pcdConsentVersion: PCD_CONSENT.version,
      pcdConsentAt: START,
    });

    // Only the roles that need it see the answer: the event's organisers and the kit desk, not orders alone.
    const seen = async (role: 'gerente' | 'financeiro') => {
      const member = await createStaffAndLogin(t.app, role);
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/painel/registrations/${id}/`,
        headers: member.headers,
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().inscricao.pcd;
    };
    expect(await seen('gerente')).toBe(true);
    expect(await seen('financeiro')).toBeNull();

    // 30 days after the event's last day: still kept.
    t.clock = noonOf(addDays(event.endDate, 30));
    await runJob();
    expect(await row(id)).toMatchObject({ pcd: true, pcdErasedAt: null });

    // The day after: erased and stamped; the registration, its CPF and category are still there.
    t.clock = noonOf(addDays(event.endDate, 31));
    await runJob();
    const erased = await row(id);
    expect(erased.pcd).toBe(false);
    expect(erased.pcdErasedAt).toEqual(t.clock);
    expect(erased).toMatchObject({ id, eventId: event.id, fullName: 'Maria da Silva', cancelledAt: null });
    // The erasure is in the back office's audit log: which registrations, by the job, no personal data.
    const [entry] = await t.app.db.select().from(auditLog).where(eq(auditLog.action, 'dados_pcd_apagados'));
    expect(entry).toMatchObject({
      staffEmail: 'sistema (privacy.health-data)',
      entity: 'inscricao',
      at: t.clock,
    });
    expect(entry!.after).toEqual({
      inscricoes: [id],
      eventos_terminados_antes_de: addDays(addDays(event.endDate, 31), -30),
    });
  });
});
