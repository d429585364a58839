import type { Db } from '../../db/client.ts';
import * as repo from './messages.repository.ts';

/** The back office's view of the message log (docs/decisions/0045, 0050), read only. */
export function createMessagesAdmin(deps: { db: Db }) {
  /** The last 200 messages, newest first, with the delivery state the webhook reported. */
  async function list(channel?: 'email' | 'whatsapp') {
    const rows = await repo.listMessages(deps.db, { ...(channel ? { channel } : {}), limit: 200 });
    return rows.map((r) => ({
      id: r.id,
      canal: r.channel,
      tipo: r.kind,
      para: r.recipient,
      situacao: r.status,
      tentativas: r.attempts,
      erro: r.error,
      entrega: r.delivery,
      entrega_em: r.deliveryAt?.toISOString() ?? null,
      erro_entrega: r.deliveryError,
      criada_em: r.createdAt.toISOString(),
    }));
  }
  return { list };
}

export type MessagesAdmin = ReturnType<typeof createMessagesAdmin>;
