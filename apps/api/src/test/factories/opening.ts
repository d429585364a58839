import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { expect, vi } from 'vitest';
import type { Db } from '../../db/client.ts';
import { registrations } from '../../db/schema/index.ts';
import { readOutbox } from './accounts.ts';
import { type MadeEvent, makeEvent } from './events.ts';
import type { TestStaff } from './painel.ts';

const MINUTE = 60_000;

export interface WaitingRoomEvent {
  name: string;
  /** When the waiting room opens; the clock is set 5 minutes before it, then 1 minute after. */
  opensAt: Date;
  /** The test's clock (the app's `now`). */
  setClock(at: Date): void;
  /** The race's categories, on one day. */
  categories: Array<{ name: string; priceCents: number }>;
  /** Accounts that join the waiting room before it opens, so they are admitted at once. */
  buyers: Array<{ headers: Record<string, string> }>;
  perBuyer: number;
  perCpf: number;
  /** The after-sale rules' transfer fee in reais, when set. */
  transferFee?: number;
}

/**
 * An event whose waiting room (decision 0051) has just opened and admitted `buyers`, with the
 * opening's limits per buyer and per CPF, made through the back office's routes as staff would.
 */
export async function waitingRoomEvent(
  app: FastifyInstance,
  admin: TestStaff,
  o: WaitingRoomEvent,
): Promise<MadeEvent> {
  o.setClock(new Date(o.opensAt.getTime() - 5 * MINUTE));
  const event = await makeEvent(app.db, {
    name: o.name,
    days: [o.categories.map((c) => ({ ...c, placesLeft: 20 }))],
  });
  const saved = await app.inject({
    method: 'PUT',
    url: `/api/painel/events/${event.id}/abertura/`,
    headers: admin.headers,
    payload: {
      modo: 'fila',
      abre_em: o.opensAt.toISOString(),
      pre_fila_minutos: 30,
      admitidos_por_minuto: 100,
      minutos_da_vez: 30,
      inscricoes_por_cpf: o.perCpf,
      inscricoes_por_comprador: o.perBuyer,
    },
  });
  expect(saved.statusCode, saved.body).toBe(200);
  if (o.transferFee !== undefined) {
    const rulesUrl = `/api/painel/events/${event.id}/pos-venda/`;
    const { texto: _, ...rules } = (
      await app.inject({ method: 'GET', url: rulesUrl, headers: admin.headers })
    ).json();
    const ruled = await app.inject({
      method: 'PUT',
      url: rulesUrl,
      headers: admin.headers,
      payload: { ...rules, transferencia_taxa: o.transferFee },
    });
    expect(ruled.statusCode, ruled.body).toBe(200);
  }
  await app.opening.refresh();
  for (const buyer of o.buyers) await joinWaitingRoom(app, event.id, buyer);
  o.setClock(new Date(o.opensAt.getTime() + MINUTE));
  await app.opening.refresh();
  return event;
}

export async function joinWaitingRoom(
  app: FastifyInstance,
  eventId: number,
  buyer: { headers: Record<string, string> },
): Promise<void> {
  const joined = await app.inject({
    method: 'POST',
    url: `/api/events/${eventId}/fila/`,
    headers: buyer.headers,
  });
  expect(joined.statusCode, joined.body).toBe(200);
}

/** The "estamos devolvendo o seu pagamento" e-mail to `email`, waited for, its soft line breaks undone. */
export async function refundMail(dataDir: string, email: string): Promise<string> {
  const mail = await vi.waitFor(
    () => {
      const found = readOutbox(dataDir).find(
        (m) => m.includes(`To: ${email}`) && m.includes('estamos devolvendo o seu pagamento'),
      );
      if (!found) throw new Error('sem e-mail de devolução');
      return found;
    },
    { timeout: 60_000, interval: 200 },
  );
  return mail.replace(/=\r?\n/g, '');
}

/** The event's registrations standing (not cancelled), for a CPF or an account. */
export function standingRegistrations(db: Db, eventId: number, where: { cpf?: string; userId?: number }) {
  return db
    .select({ id: registrations.id })
    .from(registrations)
    .where(
      and(
        eq(registrations.eventId, eventId),
        isNull(registrations.cancelledAt),
        where.cpf ? eq(registrations.cpf, where.cpf) : undefined,
        where.userId ? eq(registrations.accountUserId, where.userId) : undefined,
      ),
    );
}
