import { isUF } from '@passada/core/cep';
import type { Address, AddressData } from '@passada/core/contracts/accounts';
import { formatPhone } from '@passada/core/phone';
import type { Db, Tx } from '../../db/client.ts';
import { notFound } from '../../plugins/errors.ts';
import * as repo from './addresses.repository.ts';

export interface AddressesServiceDeps {
  db: Db;
}

const NOT_FOUND = 'Endereço não encontrado.';

export function toAddress(row: repo.AddressRow): Address {
  if (!isUF(row.state)) throw new Error(`address ${row.id} has an unknown state`);
  return {
    id: row.id,
    user: row.userId,
    full_name: row.fullName,
    zip_code: row.zipCode,
    state: row.state,
    city: row.city,
    neighborhood: row.neighborhood,
    street: row.street,
    number: row.number,
    complement: row.complement,
    phone: formatPhone(row.phone),
    is_primary: row.isPrimary,
  };
}

function toValues(input: AddressData): repo.AddressValues {
  return {
    fullName: input.full_name,
    zipCode: input.zip_code,
    state: input.state,
    city: input.city,
    neighborhood: input.neighborhood,
    street: input.street,
    number: input.number,
    complement: input.complement,
    phone: input.phone,
    isPrimary: input.is_primary,
  };
}

/** A user's delivery addresses; exactly one is primary while any exist. */
export function createAddressesService(deps: AddressesServiceDeps) {
  async function list(userId: number): Promise<Address[]> {
    return (await repo.listByUser(deps.db, userId)).map(toAddress);
  }

  /** By id AND owner: another user's address answers 404. `db` lets orders read inside their transaction. */
  async function get(userId: number, id: number, db: Db | Tx = deps.db): Promise<Address> {
    const row = await repo.findOwned(db, userId, id);
    if (!row) throw notFound(NOT_FOUND);
    return toAddress(row);
  }

  /** The first address is the primary one; a new primary takes the mark from the old in the same transaction. */
  async function create(userId: number, input: AddressData): Promise<Address> {
    return deps.db.transaction(async (tx) => {
      await repo.lockUser(tx, userId);
      const existing = await repo.listByUser(tx, userId);
      const isPrimary = input.is_primary || existing.length === 0;
      if (isPrimary) await repo.unsetPrimary(tx, userId);
      return toAddress(await repo.insert(tx, userId, { ...toValues(input), isPrimary }));
    });
  }

  /**
   * Unticking "main address" on the primary one is ignored: a user with addresses always has exactly one
   * primary; they change it by marking another.
   */
  async function update(userId: number, id: number, input: AddressData): Promise<Address> {
    return deps.db.transaction(async (tx) => {
      await repo.lockUser(tx, userId);
      const current = await repo.findOwned(tx, userId, id);
      if (!current) throw notFound(NOT_FOUND);
      const isPrimary = input.is_primary || current.isPrimary;
      if (isPrimary) await repo.unsetPrimary(tx, userId, id);
      const row = await repo.update(tx, userId, id, { ...toValues(input), isPrimary });
      if (!row) throw notFound(NOT_FOUND);
      return toAddress(row);
    });
  }

  /** Deleting the primary promotes the oldest remaining address. */
  async function remove(userId: number, id: number): Promise<void> {
    await deps.db.transaction(async (tx) => {
      await repo.lockUser(tx, userId);
      const removed = await repo.remove(tx, userId, id);
      if (!removed) throw notFound(NOT_FOUND);
      if (!removed.isPrimary) return;
      const [next] = await repo.listByUser(tx, userId);
      if (next) await repo.update(tx, userId, next.id, { isPrimary: true });
    });
  }

  return { list, get, create, update, remove };
}

export type AddressesService = ReturnType<typeof createAddressesService>;
