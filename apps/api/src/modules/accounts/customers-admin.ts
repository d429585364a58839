import type { Customer, CustomerDetail } from '@passada/core/contracts/painel';
import { normalizeDocument } from '@passada/core/documents';
import { centsToReais } from '@passada/core/money';
import { and, asc, count, desc, eq, exists, ilike, or, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { events, orders, registrations, users } from '../../db/schema/index.ts';
import { notFound } from '../../plugins/errors.ts';
import { accountsHeldBetween, othersHeldBetween } from './incident.repository.ts';
import { exportPersonalData } from './personal-data.ts';

export const CUSTOMERS_PAGE_SIZE = 20;

type UserRow = typeof users.$inferSelect;

const toCustomer = (u: UserRow): Customer => ({
  id: u.id,
  nome: u.fullName,
  email: u.email,
  username: u.username,
  criado_em: u.createdAt.toISOString(),
  excluida: u.deletedAt !== null,
});

/** `%`, `_` and `\` typed in a search are letters, not patterns. */
const likeText = (text: string) => `%${text.replace(/[\\%_]/g, '\\$&')}%`;

/**
 * The back office's customer screen (permission `clientes`, docs/decisions/0032): search, a customer's
 * orders and registrations, and the LGPD export and erasure the person may also do themselves. Like
 * personal-data.ts it reads the orders and registrations tables directly, read-only, to answer what
 * is kept about one person. The CPF searched is never logged nor written in the audit log.
 */
export function createCustomersAdmin(deps: {
  db: Db;
  now: () => Date;
  eraseAccount: (tx: Tx, userId: number) => Promise<boolean>;
}) {
  const { db } = deps;

  /** By part of the name, e-mail or user name, or by the CPF on the person's orders or registrations. */
  async function search(text: string, page: number) {
    const cpf = normalizeDocument(text);
    const byCpf: SQL[] = /^\d{11}$/.test(cpf)
      ? [
          exists(
            db
              .select({ one: orders.id })
              .from(orders)
              .where(and(eq(orders.userId, users.id), eq(orders.buyerCpf, cpf))),
          ),
          exists(
            db
              .select({ one: registrations.id })
              .from(registrations)
              .where(and(eq(registrations.accountUserId, users.id), eq(registrations.cpf, cpf))),
          ),
        ]
      : [];
    const where = or(
      ilike(users.fullName, likeText(text)),
      ilike(users.email, likeText(text)),
      ilike(users.username, likeText(text)),
      ...byCpf,
    );
    const rows = await db
      .select()
      .from(users)
      .where(where)
      .orderBy(asc(users.fullName), asc(users.id))
      .limit(CUSTOMERS_PAGE_SIZE)
      .offset((page - 1) * CUSTOMERS_PAGE_SIZE);
    const [total] = await db.select({ n: count() }).from(users).where(where);
    return { results: rows.map(toCustomer), count: total?.n ?? 0 };
  }

  async function detail(id: number): Promise<CustomerDetail> {
    const [user] = await db.select().from(users).where(eq(users.id, id));
    if (!user) throw notFound('Cliente não encontrado.');
    const myOrders = await db
      .select()
      .from(orders)
      .where(eq(orders.userId, id))
      .orderBy(desc(orders.orderDate));
    const myRegistrations = await db
      .select({ r: registrations, eventName: events.name })
      .from(registrations)
      .innerJoin(events, eq(events.id, registrations.eventId))
      .where(eq(registrations.accountUserId, id))
      .orderBy(desc(registrations.createdAt));
    return {
      cliente: toCustomer(user),
      pedidos: myOrders.map((o) => ({
        id: o.id,
        data: o.orderDate.toISOString(),
        status: o.status,
        total: centsToReais(o.totalCents),
      })),
      inscricoes: myRegistrations.map(({ r, eventName }) => ({
        id: r.id,
        evento: eventName,
        participante: r.fullName,
        criada_em: r.createdAt.toISOString(),
        cancelada: r.cancelledAt !== null,
      })),
    };
  }

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
    search,
    detail,
    exportData,
    erase,
  };
}

export type CustomersAdmin = ReturnType<typeof createCustomersAdmin>;
