export * from './accounts.ts';
export * from './catalog.ts';
export * from './coupons.ts';
export * from './events.ts';
export * from './orders.ts';
export * from './painel.ts';
export * from './payments.ts';
export * from './returns.ts';
