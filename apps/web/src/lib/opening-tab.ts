/**
 * What this tab remembers of an event's waiting room (sessionStorage: a reload keeps it, another tab or
 * account starts afresh): the signed turn the event page got (`vez`), and the state its heading last
 * announced (`sala`). Storage refused (a private mode) is as good as nothing remembered. Apart from
 * lib/opening.ts because signing out (lib/session.tsx, in every page's first script) forgets it and must
 * not bring the waiting room's polling into that script.
 */
const TAB_KEY_PREFIX = 'passada:abertura:';
const tabKey = (what: 'vez' | 'sala', eventId: number) => `${TAB_KEY_PREFIX}${what}:${eventId}`;

export function readTab(what: 'vez' | 'sala', eventId: number): string | null {
  try {
    return sessionStorage.getItem(tabKey(what, eventId));
  } catch {
    return null;
  }
}

export function writeTab(what: 'vez' | 'sala', eventId: number, value: string): void {
  try {
    sessionStorage.setItem(tabKey(what, eventId), value);
  } catch {
    // Nothing remembered: the page still works, it only cannot tell a reload from an arrival.
  }
}

/** Signing out forgets every turn this tab held: the next account gets its own. */
export function forgetTurns(): void {
  try {
    for (const key of Object.keys(sessionStorage))
      if (key.startsWith(TAB_KEY_PREFIX)) sessionStorage.removeItem(key);
  } catch {
    // Nothing was remembered.
  }
}
