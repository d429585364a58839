export * from './accounts.ts';
export * from './catalog.ts';
export * from './events.ts';
export * from './orders.ts';
export * from './payments.ts';
