import type {
  DeskSnapshot,
  OfflinePickupBatch,
  OfflinePickupReply,
} from '@passada/core/contracts/painel-checkin-desk';
import { painelFetch, painelToken } from '../../shell/painel-api.ts';

/**
 * The offline desk's two calls (docs/decisions/0063). Not React Query: what they read and write lives
 * in the desk's IndexedDB, kept across reloads and outages, not in the page's cache.
 */

/** The event's snapshot; null when it did not change since `etag` (304). */
export async function fetchDeskSnapshot(
  eventId: number,
  etag: string | null,
): Promise<{ snapshot: DeskSnapshot; etag: string } | null> {
  const res = await fetch(`/api/painel/checkin/offline/?evento=${eventId}`, {
    headers: {
      authorization: `Token ${painelToken.get() ?? ''}`,
      ...(etag ? { 'if-none-match': etag } : {}),
    },
  });
  if (res.status === 304) return null;
  if (!res.ok) throw new Error(`Erro ${res.status}`);
  const snapshot = (await res.json()) as DeskSnapshot;
  return { snapshot, etag: res.headers.get('etag') ?? `"${snapshot.versao}"` };
}

/** The pickups made without the network, once each however often they are sent. */
export const sendOfflinePickups = (batch: OfflinePickupBatch) =>
  painelFetch<OfflinePickupReply>('/checkin/offline/', { method: 'POST', body: batch });
