import type { WhatsAppOptOut, WhatsAppOptOutCreate } from '@passada/core/contracts/painel';
import type { Db, Tx } from '../../db/client.ts';
import * as repo from './messages.repository.ts';
import { listOptOuts } from './opt-outs.read-model.ts';

type OptOutRow = Awaited<ReturnType<typeof listOptOuts>>[number];

function optOutWire(r: OptOutRow): WhatsAppOptOut {
  return {
    telefone: r.phone,
    pedido: r.request,
    origem: r.messageId ? 'whatsapp' : 'equipe',
    pedido_em: r.requestedAt.toISOString(),
    registrado_por: r.staffEmail ?? null,
  };
}

/**
 * The back office's view of the message log (docs/decisions/0045, 0050), and the WhatsApp opt-outs:
 * those people wrote (PARAR) and those staff recorded for a request that came another way.
 */
export function createMessagesAdmin(deps: { db: Db; now: () => Date }) {
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

  /** The last 200 opt-outs, newest first. */
  async function optOuts(): Promise<WhatsAppOptOut[]> {
    return (await listOptOuts(deps.db, { limit: 200 })).map(optOutWire);
  }

  /**
   * Records, now, that the person of this number asked the shop to stop (the number already in the
   * Cloud API's form, the reason as staff wrote it): from this moment every message relying on a
   * consent given before is not sent, like a PARAR. Run inside the route's audited transaction.
   */
  async function recordOptOut(
    input: { telefone: string; motivo: WhatsAppOptOutCreate['motivo'] },
    staffId: number,
    tx: Tx,
  ): Promise<WhatsAppOptOut> {
    await repo.recordOptOut(tx, {
      phone: input.telefone,
      request: input.motivo,
      messageId: null,
      requestedAt: deps.now(),
      staffId,
    });
    const [row] = await listOptOuts(tx, { limit: 1, phone: input.telefone });
    return optOutWire(row!);
  }

  return { list, optOuts, recordOptOut };
}

export type MessagesAdmin = ReturnType<typeof createMessagesAdmin>;
