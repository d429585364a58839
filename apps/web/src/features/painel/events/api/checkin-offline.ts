import type {
  DeskSnapshot,
  OfflinePickupBatch,
  OfflinePickupReply,
} from '@passada/core/contracts/painel-checkin-desk';
import { painelFetch, painelFetchIfChanged } from '../../shell/painel-api.ts';

/**
 * The offline desk's two calls (docs/decisions/0063). Not React Query: what they read and write lives
 * in the desk's IndexedDB, kept across reloads and outages, not in the page's cache.
 */

/** The event's snapshot; null when it did not change since `etag` (304). */
export async function fetchDeskSnapshot(
  eventId: number,
  etag: string | null,
): Promise<{ snapshot: DeskSnapshot; etag: string } | null> {
  const fresh = await painelFetchIfChanged<DeskSnapshot>(`/checkin/offline/?evento=${eventId}`, etag);
  return fresh ? { snapshot: fresh.body, etag: fresh.etag ?? `"${fresh.body.versao}"` } : null;
}

/** The pickups made without the network, once each however often they are sent. */
export const sendOfflinePickups = (batch: OfflinePickupBatch) =>
  painelFetch<OfflinePickupReply>('/checkin/offline/', { method: 'POST', body: batch });
