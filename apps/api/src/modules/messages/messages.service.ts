import type { Env } from '../../config/env.ts';
import type { Db } from '../../db/client.ts';
import * as repo from './messages.repository.ts';
import { asksToStop, readNotification } from './webhook.ts';

export interface MessagesServiceDeps {
  db: Db;
  env: Pick<Env, 'WHATSAPP_PHONE_NUMBER_ID'>;
  now: () => Date;
  log: { info(obj: object, msg: string): void; warn(msg: string): void };
}

/**
 * What the WhatsApp webhook changes (docs/decisions/0050): the delivery state of the messages in
 * `message_log`, and the numbers that asked to stop (`whatsapp_opt_outs`), after which the WhatsApp
 * provider sends them nothing. Both are idempotent: Meta delivers a notification again until it gets a
 * 200, and may send the same one twice.
 */
export function createMessagesService(deps: MessagesServiceDeps) {
  /** One signed notification, as its raw bytes. Answers how many reports and opt-outs it recorded. */
  async function handleNotification(raw: Buffer): Promise<{ statuses: number; optOuts: number }> {
    let body: unknown;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      // Signed by Meta but unreadable: answered 200 all the same, so it is not sent again forever.
      deps.log.warn('Webhook do WhatsApp: corpo que não é JSON, ignorado');
      return { statuses: 0, optOuts: 0 };
    }
    const { statuses, messages } = readNotification(body, {
      phoneNumberId: deps.env.WHATSAPP_PHONE_NUMBER_ID,
      now: deps.now(),
    });
    let moved = 0;
    for (const report of statuses) if (await repo.recordDelivery(deps.db, report)) moved++;
    let optOuts = 0;
    for (const m of messages) {
      const request = asksToStop(m.words);
      if (!request) continue;
      if (
        await repo.recordOptOut(deps.db, {
          phone: m.from,
          request,
          messageId: m.messageId,
          requestedAt: m.at,
        })
      )
        optOuts++;
    }
    // Counts only: no numbers, no words.
    deps.log.info({ statuses: statuses.length, moved, optOuts }, 'Webhook do WhatsApp recebido');
    return { statuses: moved, optOuts };
  }

  return { handleNotification };
}

export type MessagesService = ReturnType<typeof createMessagesService>;
