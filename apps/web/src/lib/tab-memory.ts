/**
 * A code that came in a link's query (`?equipe=`, `?indicacao=`), kept for this tab so it is still there
 * on the registration form after choosing the distance and signing in.
 */
export function rememberFromLink(
  search: string,
  param: string,
  key: string,
  normalise: (code: string) => string = (code) => code.trim(),
): void {
  const code = new URLSearchParams(search).get(param);
  if (!code) return;
  try {
    sessionStorage.setItem(key, normalise(code));
  } catch {
    // Storage refused (a private mode): the code is lost, and the runner registers without it.
  }
}

/** What `rememberFromLink` kept under `key` in this tab; empty when nothing. */
export function rememberedFromLink(key: string): string {
  try {
    return sessionStorage.getItem(key) ?? '';
  } catch {
    return '';
  }
}

const REFERRAL_KEY = 'passada:indicacao';

/** A runner's referral link (`?indicacao=` on an event's page, docs/decisions/0086). */
export const rememberReferral = (search: string) => rememberFromLink(search, 'indicacao', REFERRAL_KEY);
export const rememberedReferral = () => rememberedFromLink(REFERRAL_KEY);
