import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { AppJobCatalog } from '../../jobs/job-catalog.ts';
import type { Jobs } from '../../jobs/jobs.ts';
import type { ShippingProvider } from '../../providers/shipping/shipping.provider.ts';
import * as repo from './returns.repository.ts';

export interface ReturnTrackingDeps {
  db: Db;
  now: () => Date;
  log: FastifyBaseLogger;
  jobs: Pick<Jobs<AppJobCatalog>, 'send'>;
  shipping: Pick<ShippingProvider, 'trackReturn'>;
}

/**
 * The `postada` step read from the carrier (docs/decisions/0040): for every return or exchange whose code
 * was sent, the carrier's tracking of that code (when the provider offers it); a posting moves the request
 * to `postada` under its row lock (the version bumps, so a screen opened before is told) and e-mails the
 * buyer. A carrier that fails is logged and asked again on the next run.
 */
export function createReturnTracking(deps: ReturnTrackingDeps) {
  async function followPostings(): Promise<number> {
    if (!deps.shipping.trackReturn) return 0;
    let moved = 0;
    for (const candidate of await repo.listAwaitingPosting(deps.db)) {
      let postedAt: Date | null;
      try {
        postedAt = (await deps.shipping.trackReturn(candidate.postingCode!)).postedAt;
      } catch (err) {
        deps.log.warn({ returnId: candidate.id, err: (err as Error).message }, 'return tracking not read');
        continue;
      }
      if (!postedAt) continue;
      await deps.db.transaction(async (tx) => {
        const row = await repo.lockReturn(tx, candidate.id);
        if (row?.status !== 'codigo_enviado') return;
        await repo.updateReturn(tx, row.id, {
          status: 'postada',
          version: row.version + 1,
          updatedAt: postedAt,
        });
        await deps.jobs.send('mail.return-update', { returnId: row.id }, { tx });
        moved += 1;
      });
    }
    return moved;
  }

  return { followPostings };
}

export type ReturnTracking = ReturnType<typeof createReturnTracking>;
