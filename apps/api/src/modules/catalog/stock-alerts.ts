import { companyIdentityLine } from '@passada/core/company';
import type { Env } from '../../config/env.ts';
import type { Db, Tx } from '../../db/client.ts';
import type { AppJobCatalog } from '../../jobs/job-catalog.ts';
import type { Jobs } from '../../jobs/jobs.ts';
import { conflict, notFound } from '../../plugins/errors.ts';
import type { MailProvider } from '../../providers/mail/mail.provider.ts';
import { findStock } from './stock.repository.ts';
import * as repo from './stock-alerts.repository.ts';

/** How long a told alert's address is kept (only to show the back office who was told), in days. */
const KEEP_TOLD_DAYS = 30;

/**
 * "Avise-me quando chegar" (docs/decisions/0069): an address waits for one colour and size; when units
 * come back (a restock, a return, a reservation let go), the sweep tells the oldest waiting first, as
 * many as the units that came back, once each. Units short of the line leave the rest waiting for the
 * next units. The sweep runs every minute and is queued by staff's stock changes, inside their
 * transaction.
 */
export function createStockAlerts(deps: {
  db: Db;
  jobs: Jobs<AppJobCatalog>;
  mail: MailProvider;
  env: Pick<Env, 'STORE_NAME' | 'publicUrl'>;
  now: () => Date;
}) {
  /** Waits for a combination with no units now; the same answer whether the address already waited. */
  async function subscribe(combo: repo.Combo, email: string): Promise<void> {
    const [row] = await findStock(deps.db, [combo.productId], {
      colorId: combo.colorId,
      sizeId: combo.sizeId,
    });
    if (!row) throw notFound('Esta cor e tamanho não existem neste produto.');
    if (row.quantity > 0)
      throw conflict('Este tamanho está disponível agora: é só adicionar à sacola.', 'em_estoque');
    await deps.db.transaction(async (tx) => {
      // The first of a new line: units that came and went before it are not news to anyone.
      if (!(await repo.anyoneWaiting(tx, combo))) await repo.countArrivals(tx, combo, { fresh: true });
      await repo.insertAlert(tx, combo, email.trim().toLowerCase(), deps.now());
    });
  }

  /**
   * The `catalog.stock-alerts` job: for each combination with a line, the units the ledger shows came back
   * since the last look (and are still on sale) go to as many of the first in line. A unit nobody bought
   * is not announced again: the next in line hear of the next units.
   */
  async function sweep(): Promise<number> {
    return deps.db.transaction(async (tx) => {
      const now = deps.now();
      let told = 0;
      for (const combo of await repo.combosWaiting(tx)) {
        // Units that came back since the last look, and are still on sale: that many of the line hear.
        const back = Math.min(await repo.countArrivals(tx, combo), combo.units);
        if (back <= 0) continue;
        const ids = await repo.takeFirstWaiting(tx, combo, back, now);
        // The e-mails go after the commit, one job each: a mail server down never tells twice.
        for (const id of ids) await deps.jobs.send('mail.stock-alert', { alertId: id }, { tx });
        told += ids.length;
      }
      await repo.deleteToldBefore(tx, new Date(now.getTime() - KEEP_TOLD_DAYS * 86_400_000));
      return told;
    });
  }

  /** Queues a sweep in the caller's transaction (staff put units back): it runs after the commit. */
  async function nudge(tx: Tx): Promise<void> {
    // One waiting run is enough (each run looks at every combination): a second send is dropped.
    await deps.jobs.send('catalog.stock-alerts', {}, { tx, singletonKey: 'stock-alerts' });
  }

  /** The `mail.stock-alert` job: the product is back, in the colour and size asked. */
  async function sendMail(alertId: number): Promise<void> {
    const alert = await repo.alertForMail(deps.db, alertId);
    // Deleted meanwhile (the account erased): nobody to tell.
    if (!alert) return;
    const link = `${deps.env.publicUrl.replace(/\/+$/, '')}/produto/${alert.productId}`;
    await deps.mail.send({
      to: alert.email,
      subject: `${deps.env.STORE_NAME}: ${alert.productName} voltou no tamanho ${alert.size}`,
      text: [
        'Olá!',
        '',
        `${alert.productName}, na cor ${alert.color} e no tamanho ${alert.size}, voltou ao estoque.`,
        'As unidades são poucas e vão para quem comprar primeiro: este aviso não reserva a peça.',
        '',
        `Ver o produto: ${link}`,
        '',
        'Você recebeu este e-mail porque pediu para ser avisado. Ele é enviado uma vez só.',
        '',
        companyIdentityLine(),
      ].join('\n'),
    });
  }

  return { subscribe, sweep, nudge, sendMail, forgetEmail: repo.deleteOfEmail };
}

export type StockAlerts = ReturnType<typeof createStockAlerts>;
