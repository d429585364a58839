import { describe, expect, it } from 'vitest';
import type { Tx } from '../../db/client.ts';
import { createPersonalDataOwners } from './personal-data-owners.ts';

const tx = {} as Tx;
const cutoff = { date: '2021-01-01', before: new Date('2021-01-01T03:00:00Z'), now: new Date() };

/** Accounts asks every module that keeps personal data (decision 0061); nobody erases another's rows. */
describe('the registry of personal data owners', () => {
  it('asks every owner to forget an account in registration order, the charges last', async () => {
    const calls: string[] = [];
    const owners = createPersonalDataOwners();
    owners.registerCharges({
      forgetAccount: async (_tx, userId) => void calls.push(`payments ${userId}`),
      forgetCharges: async () => undefined,
    });
    owners.register({ module: 'opening', forgetAccount: async () => void calls.push('opening') });
    owners.register({
      module: 'registrations',
      forgetAccount: async (_tx, a) => void calls.push(`registrations ${a.confirmedEmail}`),
    });
    await owners.forgetAccount(tx, { userId: 7, confirmedEmail: 'ana@example.com' });
    expect(calls).toEqual(['opening', 'registrations ana@example.com', 'payments 7']);
  });

  it('sums each owner’s sales records and forgets their charges once, in order', async () => {
    const forgotten: number[][] = [];
    const owners = createPersonalDataOwners();
    owners.registerCharges({
      forgetAccount: async () => undefined,
      forgetCharges: async (_tx, ids) => void forgotten.push(ids),
    });
    owners.register({
      module: 'registrations',
      eraseSalesRecords: async () => ({ counts: { inscricoes: 2 }, chargeIds: [9, 3] }),
    });
    owners.register({ module: 'opening', forgetAccount: async () => undefined });
    owners.register({
      module: 'orders',
      eraseSalesRecords: async () => ({ counts: { pedidos: 1 }, chargeIds: [3] }),
    });
    expect(await owners.eraseSalesRecords(tx, cutoff)).toEqual({
      counts: { inscricoes: 2, pedidos: 1 },
      chargeIds: [3, 9],
    });
    expect(forgotten).toEqual([[3, 9]]);
  });

  it('refuses a module registered twice', () => {
    const owners = createPersonalDataOwners();
    owners.register({ module: 'orders' });
    expect(() => owners.register({ module: 'orders' })).toThrow(/orders já está registrado/);
  });
});
