/**
 * The back office's contracts (`/api/painel/`), one file per domain: painel-staff, painel-catalog,
 * painel-events, painel-customers, painel-messages (and painel-orders, painel-reports). The version a form
 * was opened with is in painel-versions. This file re-exports them all, so `@passada/core/contracts/painel` answers every name.
 */
export * from './painel-catalog.ts';
export * from './painel-customers.ts';
export * from './painel-events.ts';
export * from './painel-messages.ts';
export * from './painel-staff.ts';
export * from './painel-versions.ts';
