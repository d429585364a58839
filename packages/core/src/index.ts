export * from './cep.ts';
export * from './money.ts';
