import type { Db } from '../client.ts';
import { coupons } from '../schema/index.ts';

/** The demo coupons (README "Trying the demo"): one for the shop, one for races. */
export const DEMO_COUPONS = [
  {
    code: 'BEMVINDO10',
    description: '10% de desconto nos produtos da loja (demonstração).',
    kind: 'percentual',
    percent: 10,
    amountCents: null,
    scope: 'loja',
    maxUsesPerAccount: 1,
  },
  {
    code: 'CORRIDA20',
    description: 'R$ 20,00 de desconto na inscrição em qualquer corrida (demonstração).',
    kind: 'fixo',
    percent: null,
    amountCents: 2000,
    scope: 'corridas',
    maxUsesPerCpf: 1,
  },
] as const;

export async function seedCoupons(db: Db): Promise<void> {
  await db
    .insert(coupons)
    .values([...DEMO_COUPONS])
    .onConflictDoNothing();
}
