import type { CustomerNote } from '@passada/core/contracts/painel';
import { and, asc, count, desc, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { customerNotes, customerTags, users } from '../../db/schema/index.ts';
import { conflict, notFound } from '../../plugins/errors.ts';

/**
 * The notes and tags staff keep on a customer (docs/decisions/0080). Notes are appended and deleted,
 * never edited, and tags are added and removed one by one: two people on the same screen never write
 * over each other's work. Both go with the account's personal data and are in the person's download.
 */

type Conn = Db | Tx;
type NoteRow = typeof customerNotes.$inferSelect;

const toNote = (n: NoteRow): CustomerNote => ({
  id: n.id,
  texto: n.text,
  autor: n.authorName,
  criada_em: n.createdAt.toISOString(),
});

/** The customer, locked for the note or tag, and still holding personal data. */
async function liveCustomer(db: Conn, userId: number): Promise<void> {
  const [user] = await db
    .select({ deletedAt: users.deletedAt })
    .from(users)
    .where(eq(users.id, userId))
    .for('share');
  if (!user) throw notFound('Cliente não encontrado.');
  if (user.deletedAt) throw conflict('Os dados pessoais deste cliente foram excluídos.', 'cliente_excluido');
}

export async function notesOf(db: Conn, userId: number): Promise<CustomerNote[]> {
  const rows = await db
    .select()
    .from(customerNotes)
    .where(eq(customerNotes.userId, userId))
    .orderBy(desc(customerNotes.createdAt), desc(customerNotes.id));
  return rows.map(toNote);
}

export async function tagsOf(db: Conn, userId: number): Promise<string[]> {
  const rows = await db
    .select({ tag: customerTags.tag })
    .from(customerTags)
    .where(eq(customerTags.userId, userId))
    .orderBy(asc(customerTags.tag));
  return rows.map((r) => r.tag);
}

export async function addNote(
  tx: Conn,
  userId: number,
  text: string,
  author: { id: number; name: string },
): Promise<CustomerNote> {
  await liveCustomer(tx, userId);
  const [row] = await tx
    .insert(customerNotes)
    .values({ userId, text, authorName: author.name, authorId: author.id })
    .returning();
  if (!row) throw new Error('insert customer_notes returned nothing');
  return toNote(row);
}

export async function deleteNote(tx: Conn, userId: number, noteId: number): Promise<void> {
  const gone = await tx
    .delete(customerNotes)
    .where(and(eq(customerNotes.id, noteId), eq(customerNotes.userId, userId)))
    .returning({ id: customerNotes.id });
  if (gone.length === 0) throw notFound('Nota não encontrada.');
}

/** Adding a tag the customer already has changes nothing. */
export async function addTag(tx: Conn, userId: number, tag: string): Promise<string[]> {
  await liveCustomer(tx, userId);
  await tx.insert(customerTags).values({ userId, tag }).onConflictDoNothing();
  return tagsOf(tx, userId);
}

/** Removing a tag the customer no longer has changes nothing. */
export async function removeTag(tx: Conn, userId: number, tag: string): Promise<string[]> {
  await tx.delete(customerTags).where(and(eq(customerTags.userId, userId), eq(customerTags.tag, tag)));
  return tagsOf(tx, userId);
}

/** The tags in use and how many customers carry each, for the search's filter. */
export async function tagCounts(db: Conn) {
  const rows = await db
    .select({ etiqueta: customerTags.tag, clientes: count() })
    .from(customerTags)
    .groupBy(customerTags.tag)
    .orderBy(asc(customerTags.tag));
  return rows;
}
