/**
 * The back office's customer screen as a read model (docs/architecture.md §9): a person's account with
 * the orders and registrations that name it, read across the orders and registrations modules and
 * never written. The CPF searched is never logged.
 */
import type { Customer, CustomerDetail } from '@passada/core/contracts/painel';
import { normalizeDocument } from '@passada/core/documents';
import { centsToReais } from '@passada/core/money';
import { and, asc, count, desc, eq, exists, ilike, or, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { customerTags, events, orders, registrations, users } from '../../db/schema/index.ts';
import { notFound } from '../../plugins/errors.ts';
import { notesOf, tagsOf } from './customer-notes.ts';

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
 * By part of the name, e-mail or user name, or by the CPF on the person's orders or registrations; with a
 * tag, only the customers carrying it (the text may then be empty).
 */
export async function searchCustomers(db: Db, text: string, page: number, tag?: string) {
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
  const byText =
    text.length > 0
      ? or(
          ilike(users.fullName, likeText(text)),
          ilike(users.email, likeText(text)),
          ilike(users.username, likeText(text)),
          ...byCpf,
        )
      : undefined;
  const byTag = tag
    ? exists(
        db
          .select({ one: customerTags.userId })
          .from(customerTags)
          .where(and(eq(customerTags.userId, users.id), eq(customerTags.tag, tag))),
      )
    : undefined;
  const where = and(byText, byTag);
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

export async function customerDetail(db: Db, id: number): Promise<CustomerDetail> {
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
    notas: await notesOf(db, id),
    etiquetas: await tagsOf(db, id),
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
