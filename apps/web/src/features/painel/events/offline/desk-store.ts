import type { DeskPickup, DeskSnapshot } from '@passada/core/contracts/painel-checkin-desk';
import { type DBSchema, type IDBPDatabase, openDB } from 'idb';

/**
 * What a kit desk keeps on the phone to work without the network (docs/decisions/0063), in IndexedDB:
 * the event's snapshot with when it was last confirmed, the pickups waiting to be sent, and the
 * conflicts the server reported back.
 */
export interface StoredSnapshot {
  eventId: number;
  snapshot: DeskSnapshot;
  etag: string;
  /** When the server last confirmed it (a 200 or a 304), epoch ms. */
  checkedAt: number;
}

export interface QueuedPickup {
  id: string;
  eventId: number;
  inscricao: number;
  nome: string;
  lida_em: string;
  /** Who collected it and the item brought (docs/decisions/0063, later). */
  retirou?: 'titular' | 'autorizado';
  autorizado_nome?: string;
  item_quantidade?: number | null;
}

export interface DeskConflict {
  id: string;
  eventId: number;
  inscricao: number;
  nome: string;
  /** When this desk handed it out. */
  lida_em: string;
  mensagem: string;
  retirada: DeskPickup | null;
}

interface DeskDb extends DBSchema {
  snapshots: { key: number; value: StoredSnapshot };
  queue: { key: string; value: QueuedPickup; indexes: { event: number } };
  conflicts: { key: string; value: DeskConflict; indexes: { event: number } };
}

let opened: Promise<IDBPDatabase<DeskDb>> | null = null;
const db = () => {
  opened ??= openDB<DeskDb>('passada-checkin', 1, {
    upgrade(d) {
      d.createObjectStore('snapshots', { keyPath: 'eventId' });
      d.createObjectStore('queue', { keyPath: 'id' }).createIndex('event', 'eventId');
      d.createObjectStore('conflicts', { keyPath: 'id' }).createIndex('event', 'eventId');
    },
  });
  return opened;
};

export const deskStore = {
  snapshot: async (eventId: number) => (await db()).get('snapshots', eventId),
  saveSnapshot: async (value: StoredSnapshot) => void (await (await db()).put('snapshots', value)),
  queue: async (eventId: number) => (await db()).getAllFromIndex('queue', 'event', eventId),
  enqueue: async (value: QueuedPickup) => void (await (await db()).put('queue', value)),
  /** The server answered these scans: out of the queue, and the conflicts kept to be shown. */
  settle: async (sent: string[], conflicts: DeskConflict[]) => {
    const tx = (await db()).transaction(['queue', 'conflicts'], 'readwrite');
    for (const id of sent) await tx.objectStore('queue').delete(id);
    for (const c of conflicts) await tx.objectStore('conflicts').put(c);
    await tx.done;
  },
  conflicts: async (eventId: number) => (await db()).getAllFromIndex('conflicts', 'event', eventId),
  dismissConflict: async (id: string) => void (await (await db()).delete('conflicts', id)),
};
