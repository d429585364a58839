/** The store's clock (America/Fortaleza, UTC−3 all year) as a `datetime-local` value, and back. */
const OFFSET_MS = 3 * 3_600_000;
export const toLocal = (iso: string) => new Date(Date.parse(iso) - OFFSET_MS).toISOString().slice(0, 16);
export const fromLocal = (value: string) => (value ? `${value}:00-03:00` : '');
