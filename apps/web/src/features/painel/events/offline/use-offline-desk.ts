import { type DeskIndex, indexSnapshot } from '@passada/core/checkin-offline';
import type { DeskPickup, DeskSnapshot } from '@passada/core/contracts/painel-checkin-desk';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { readString, StorageKeys, writeString } from '../../../../lib/storage.ts';
import { fetchDeskSnapshot, sendOfflinePickups } from '../api/checkin-offline.ts';
import type { PickupAnswer } from '../components/pickup-choice.tsx';
import { type DeskConflict, deskStore, type QueuedPickup } from './desk-store.ts';

const DESK_NAME_KEY = StorageKeys.checkinDesk;
/** Pickups per request; CHECKIN_OFFLINE_BATCH_MAX is at least this. */
const BATCH = 50;

/** Whether the browser says it has a network, kept up to date. */
function useOnline(): boolean {
  const [online, setOnline] = useState(() => (typeof navigator === 'undefined' ? true : navigator.onLine));
  useEffect(() => {
    const on = () => setOnline(true);
    const off = () => setOnline(false);
    window.addEventListener('online', on);
    window.addEventListener('offline', off);
    return () => {
      window.removeEventListener('online', on);
      window.removeEventListener('offline', off);
    };
  }, []);
  return online;
}

/** A clock for "atualizado há 3 min", ticking every 20 s. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 20_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/**
 * The desk's offline half (docs/decisions/0063): the snapshot kept in IndexedDB and refreshed with its
 * ETag while there is a network, the pickups made without it queued and sent when it returns, and the
 * conflicts the server reported.
 */
export function useOfflineDesk(eventId: number) {
  const online = useOnline();
  const now = useNow();
  const [stored, setStored] = useState<{ snapshot: DeskSnapshot; checkedAt: number } | null>(null);
  const [queue, setQueue] = useState<QueuedPickup[]>([]);
  const [conflicts, setConflicts] = useState<DeskConflict[]>([]);
  const [deskName, setDeskNameState] = useState(() => readString(DESK_NAME_KEY) ?? '');
  const busy = useRef(false);

  const reload = useCallback(async () => {
    const [s, q, c] = await Promise.all([
      deskStore.snapshot(eventId),
      deskStore.queue(eventId),
      deskStore.conflicts(eventId),
    ]);
    setStored(s ? { snapshot: s.snapshot, checkedAt: s.checkedAt } : null);
    setQueue(q.sort((a, b) => a.lida_em.localeCompare(b.lida_em)));
    setConflicts(c);
  }, [eventId]);

  /** The snapshot again, cheaply: the server answers 304 when nothing changed. */
  const refresh = useCallback(async () => {
    const current = await deskStore.snapshot(eventId);
    const fresh = await fetchDeskSnapshot(eventId, current?.etag ?? null);
    if (fresh) await deskStore.saveSnapshot({ eventId, ...fresh, checkedAt: Date.now() });
    else if (current) await deskStore.saveSnapshot({ ...current, checkedAt: Date.now() });
  }, [eventId]);

  /** The queued pickups to the server; each answered one leaves the queue, a conflict is kept. */
  const sync = useCallback(async () => {
    if (busy.current) return;
    busy.current = true;
    try {
      const queued = await deskStore.queue(eventId);
      // 50 at a time: a long outage's queue goes in parts, each settled as it is answered.
      for (let at = 0; at < queued.length; at += BATCH) {
        const waiting = queued.slice(at, at + BATCH);
        const reply = await sendOfflinePickups({
          evento: eventId,
          mesa: readString(DESK_NAME_KEY) || 'Mesa sem nome',
          retiradas: waiting.map((p) => ({
            id: p.id,
            inscricao: p.inscricao,
            lida_em: p.lida_em,
            // Queued before the desk asked who collected: the runner, nothing counted.
            retirou: p.retirou ?? 'titular',
            ...(p.autorizado_nome ? { autorizado_nome: p.autorizado_nome } : {}),
            item_quantidade: p.item_quantidade ?? null,
          })),
        });
        const byId = new Map(waiting.map((p) => [p.id, p]));
        const found: DeskConflict[] = reply.resultados
          .filter((r) => r.situacao !== 'registrada')
          .map((r) => ({
            id: r.id,
            eventId,
            inscricao: r.inscricao,
            nome: byId.get(r.id)?.nome ?? `nº ${r.inscricao}`,
            lida_em: byId.get(r.id)?.lida_em ?? '',
            mensagem: r.mensagem ?? 'Retirada não registrada.',
            retirada: r.retirada,
          }));
        await deskStore.settle(
          reply.resultados.map((r) => r.id),
          found,
        );
      }
      await refresh();
    } catch {
      // No network after all, or the server refused: the queue stays for the next try.
    } finally {
      busy.current = false;
      await reload();
    }
  }, [eventId, refresh, reload]);

  useEffect(() => {
    void reload();
  }, [reload]);
  // On opening and whenever the network returns: send what waits, then refresh the snapshot.
  useEffect(() => {
    if (online) void sync();
  }, [online, sync]);
  // While online, the snapshot is kept fresh (a 304 most of the time).
  useEffect(() => {
    if (!online) return;
    const timer = setInterval(() => void sync(), 60_000);
    return () => clearInterval(timer);
  }, [online, sync]);

  const index: DeskIndex = useMemo(() => indexSnapshot(stored?.snapshot ?? { inscricoes: [] }), [stored]);
  const pending: Map<number, DeskPickup> = useMemo(
    () => new Map(queue.map((p) => [p.inscricao, { em: p.lida_em, por: 'esta mesa', mesa: null }])),
    [queue],
  );

  return {
    online,
    snapshot: stored?.snapshot ?? null,
    ageMinutes: stored ? Math.max(0, Math.floor((now - stored.checkedAt) / 60_000)) : null,
    index,
    pending,
    queue,
    conflicts,
    deskName,
    setDeskName: (name: string) => {
      writeString(DESK_NAME_KEY, name);
      setDeskNameState(name);
    },
    /** A kit handed out without the network: queued, sent when it returns. */
    handOut: async (inscricao: number, nome: string, answer: PickupAnswer) => {
      await deskStore.enqueue({
        id: crypto.randomUUID(),
        eventId,
        inscricao,
        nome,
        lida_em: new Date().toISOString(),
        ...answer,
      });
      await reload();
      if (navigator.onLine) void sync();
    },
    dismissConflict: async (id: string) => {
      await deskStore.dismissConflict(id);
      await reload();
    },
  };
}
