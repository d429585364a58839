import type { Db, Tx } from '../../db/client.ts';
import { notFound } from '../../plugins/errors.ts';
import { addNote, addTag, deleteNote, removeTag, tagCounts } from './customer-notes.ts';
import { customerDetail, searchCustomers } from './customers.read-model.ts';
import { accountsHeldBetween, othersHeldBetween } from './incident.read-model.ts';
import { exportPersonalData } from './personal-data.read-model.ts';

export { CUSTOMERS_PAGE_SIZE } from './customers.read-model.ts';

/**
 * The back office's customer screen (permission `clientes`, docs/decisions/0032): search, a customer's
 * orders and registrations, and the LGPD export and erasure the person may also do themselves. Its reads
 * across modules are read models (customers, personal data, incident). The CPF searched is never logged
 * nor written in the audit log.
 */
export function createCustomersAdmin(deps: {
  db: Db;
  now: () => Date;
  eraseAccount: (tx: Tx, userId: number) => Promise<boolean>;
}) {
  const { db } = deps;

  const search = (text: string, page: number, tag?: string) => searchCustomers(db, text, page, tag);
  const detail = (id: number) => customerDetail(db, id);

  /**
   * LGPD art. 18 II and V: what the person would download from their own account, read in the caller's
   * transaction (the audit line's: on PGlite a second transaction would wait for the first for ever).
   */
  const exportData = (tx: Tx, id: number) => exportPersonalData(tx, id, deps.now());

  /**
   * LGPD art. 18 VI on the person's request: the same erasure as their own account deletion, in the
   * caller's transaction (the audit line commits with it). 404 when there is nothing left to erase.
   */
  async function erase(tx: Tx, id: number): Promise<void> {
    if (!(await deps.eraseAccount(tx, id))) throw notFound('Cliente não encontrado ou já excluído.');
  }

  /**
   * The incident export (docs/operations.md): accounts held in [from, to] and the kinds of data each
   * holds, then the people held without an account line (numbers and addresses of the message log,
   * waitlists, transfers).
   */
  const incident = async (tx: Tx, from: Date, to: Date) => ({
    accounts: await accountsHeldBetween(tx, from, to),
    others: await othersHeldBetween(tx, from, to),
  });

  return {
    incident,
    addNote,
    deleteNote,
    addTag,
    removeTag,
    tags: () => tagCounts(db),
    search,
    detail,
    exportData,
    erase,
  };
}

export type CustomersAdmin = ReturnType<typeof createCustomersAdmin>;
