import { and, asc, eq, inArray, isNotNull, lt, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import {
  accountNotices,
  addresses,
  authTokens,
  eventCategories,
  events,
  loginDevices,
  loginFailures,
  loginLinks,
  lotteryEntries,
  orderItems,
  orders,
  passwordResets,
  rateLimitCounters,
  registrationCategories,
  registrations,
  registrationTransfers,
  users,
  waitlistEntries,
} from '../../db/schema/index.ts';
import { notFound } from '../../plugins/errors.ts';

/**
 * LGPD art. 18 II (access) and V (portability): everything the shop keeps about a person, keyed to
 * their account. It reads the order and registration tables directly, read-only, because the answer
 * must cover every table that holds the person's data in one consistent snapshot; password hashes,
 * token hashes and payment-provider data never appear.
 */
export async function exportPersonalData(db: Db | Tx, userId: number, now: Date) {
  return db.transaction(async (tx) => {
    const [user] = await tx.select().from(users).where(eq(users.id, userId)).limit(1);
    if (!user || user.deletedAt) throw notFound('Conta não encontrada.');
    const myAddresses = await tx
      .select()
      .from(addresses)
      .where(eq(addresses.userId, userId))
      .orderBy(asc(addresses.id));
    const myOrders = await tx.select().from(orders).where(eq(orders.userId, userId)).orderBy(asc(orders.id));
    const items =
      myOrders.length === 0
        ? []
        : await tx
            .select()
            .from(orderItems)
            .where(
              inArray(
                orderItems.orderId,
                myOrders.map((o) => o.id),
              ),
            );
    const myRegistrations = await tx
      .select({ registration: registrations, eventName: events.name })
      .from(registrations)
      .innerJoin(events, eq(events.id, registrations.eventId))
      .where(eq(registrations.accountUserId, userId))
      .orderBy(asc(registrations.id));
    const categories =
      myRegistrations.length === 0
        ? []
        : await tx
            .select()
            .from(registrationCategories)
            .where(
              inArray(
                registrationCategories.registrationId,
                myRegistrations.map((r) => r.registration.id),
              ),
            );
    // What was given for transfers (of the account's registrations, or from or to its e-mail) and
    // waitlists (with its e-mail), docs/decisions/0047.
    const email = user.email.toLowerCase();
    const registrationIds = myRegistrations.map((r) => r.registration.id);
    const transfers = await tx
      .select({ transfer: registrationTransfers, eventName: events.name })
      .from(registrationTransfers)
      .innerJoin(registrations, eq(registrations.id, registrationTransfers.registrationId))
      .innerJoin(events, eq(events.id, registrations.eventId))
      .where(
        or(
          registrationIds.length > 0
            ? inArray(registrationTransfers.registrationId, registrationIds)
            : undefined,
          sql`lower(${registrationTransfers.fromEmail}) = ${email}`,
          sql`lower(${registrationTransfers.toEmail}) = ${email}`,
        ),
      )
      .orderBy(asc(registrationTransfers.id));
    const waitlist = await tx
      .select({ entry: waitlistEntries, eventName: events.name, categoryName: eventCategories.name })
      .from(waitlistEntries)
      .innerJoin(events, eq(events.id, waitlistEntries.eventId))
      .innerJoin(eventCategories, eq(eventCategories.id, waitlistEntries.categoryId))
      .where(sql`lower(${waitlistEntries.email}) = ${email}`)
      .orderBy(asc(waitlistEntries.id));
    // Lottery entries (docs/decisions/0051): made with the account, or given with its e-mail.
    const lottery = await tx
      .select({ entry: lotteryEntries, eventName: events.name, categoryName: eventCategories.name })
      .from(lotteryEntries)
      .innerJoin(events, eq(events.id, lotteryEntries.eventId))
      .innerJoin(eventCategories, eq(eventCategories.id, lotteryEntries.categoryId))
      .where(or(eq(lotteryEntries.userId, userId), sql`lower(${lotteryEntries.email}) = ${email}`))
      .orderBy(asc(lotteryEntries.id));
    const notices = await tx
      .select({ kind: accountNotices.kind, email: accountNotices.email, createdAt: accountNotices.createdAt })
      .from(accountNotices)
      .where(eq(accountNotices.userId, userId));
    const devices = await tx
      .select({ createdAt: loginDevices.createdAt, lastUsedAt: loginDevices.lastUsedAt })
      .from(loginDevices)
      .where(eq(loginDevices.userId, userId))
      .orderBy(asc(loginDevices.id));
    return {
      gerado_em: now.toISOString(),
      perfil: {
        username: user.username,
        email: user.email,
        full_name: user.fullName,
        criado_em: user.createdAt.toISOString(),
      },
      enderecos: myAddresses.map((a) => ({
        id: a.id,
        full_name: a.fullName,
        zip_code: a.zipCode,
        state: a.state,
        city: a.city,
        neighborhood: a.neighborhood,
        street: a.street,
        number: a.number,
        complement: a.complement,
        phone: a.phone,
        is_primary: a.isPrimary,
      })),
      pedidos: myOrders.map((o) => ({
        id: o.id,
        data: o.orderDate.toISOString(),
        situacao: o.status,
        pagamento: o.paymentMethod,
        frete: o.shippingService,
        total_centavos: o.totalCents,
        parcelas: o.installments,
        endereco_de_entrega: o.address,
        itens: items.filter((i) => i.orderId === o.id).map(({ id: _id, orderId: _orderId, ...rest }) => rest),
      })),
      inscricoes: myRegistrations.map(({ registration: r, eventName }) => ({
        id: r.id,
        evento: eventName,
        nome_completo: r.fullName,
        cpf: r.cpf,
        data_nascimento: r.birthDate,
        genero: r.gender,
        endereco: r.address,
        numero_contato: r.phone,
        email: r.email,
        cep: r.zipCode,
        cidade: r.city,
        estado: r.state,
        total_centavos: r.totalCents,
        criada_em: r.createdAt.toISOString(),
        cancelada_em: r.cancelledAt?.toISOString() ?? null,
        categorias: categories
          .filter((c) => c.registrationId === r.id)
          .map((c) => ({ categoria: c.categoryId, preco_centavos: c.priceCents })),
      })),
      transferencias: transfers.map(({ transfer: t, eventName }) => ({
        inscricao: t.registrationId,
        evento: eventName,
        situacao: t.status,
        de: { nome_completo: t.fromName, email: t.fromEmail },
        para: { nome_completo: t.toName, cpf: t.toCpf, email: t.toEmail },
        taxa_centavos: t.feeCents,
        pedida_em: t.createdAt.toISOString(),
        encerrada_em: t.endedAt?.toISOString() ?? null,
      })),
      lista_de_espera: waitlist.map(({ entry: w, eventName, categoryName }) => ({
        evento: eventName,
        categoria: categoryName,
        nome_completo: w.fullName,
        cpf: w.cpf,
        email: w.email,
        situacao: w.status,
        entrou_em: w.createdAt.toISOString(),
        encerrada_em: w.endedAt?.toISOString() ?? null,
      })),
      sorteios: lottery.map(({ entry: l, eventName, categoryName }) => ({
        id: l.id,
        evento: eventName,
        categoria: categoryName,
        nome_completo: l.fullName,
        cpf: l.cpf,
        email: l.email,
        data_nascimento: l.birthDate,
        inscrito_em: l.createdAt.toISOString(),
        posicao: l.rank,
        sorteado_no_sorteio: l.wonInDraw,
        pagar_ate: l.payBy?.toISOString() ?? null,
      })),
      avisos_de_seguranca: notices.map((n) => ({
        tipo: n.kind,
        enviado_para: n.email,
        em: n.createdAt.toISOString(),
      })),
      // Browsers that signed in (device cookies, docs/decisions/0024): when, never the nonce.
      navegadores_conhecidos: devices.map((d) => ({
        desde: d.createdAt.toISOString(),
        ultimo_login: d.lastUsedAt.toISOString(),
      })),
    };
  });
}

export type PersonalData = Awaited<ReturnType<typeof exportPersonalData>>;

/** How long each kind of account data is kept (docs/decisions/0016-hardening.md). */
export const RETENTION = {
  /** Expired or revoked sign-in tokens: 30 days, for answering "was my account used?". */
  tokensDays: 30,
  /** Used or expired reset links: 30 days. */
  passwordResetsDays: 30,
  /** Failed logins: 1 day (the lockout looks back 15 minutes). */
  loginFailuresDays: 1,
  /** Per-IP counters: 1 day (the longest window is one hour). */
  rateCountersDays: 1,
  /** Security notices, with the address they went to: 180 days. */
  noticesDays: 180,
  /** Used or expired sign-in links: 30 days, like reset links. */
  loginLinksDays: 30,
} as const;

const daysBefore = (now: Date, days: number) => new Date(now.getTime() - days * 86_400_000);

/** Deletes account data past its retention period; answers how many rows of each kind went. */
/** `deviceTtlDays` is LOGIN_DEVICE_TTL_DAYS: a device cookie unused that long is no longer trusted. */
export async function applyRetention(
  db: Db,
  now: Date,
  deviceTtlDays: number,
): Promise<Record<string, number>> {
  const tokens = await db
    .delete(authTokens)
    .where(
      or(
        lt(authTokens.expiresAt, daysBefore(now, RETENTION.tokensDays)),
        and(isNotNull(authTokens.revokedAt), lt(authTokens.revokedAt, daysBefore(now, RETENTION.tokensDays))),
      ),
    )
    .returning({ id: authTokens.id });
  const resets = await db
    .delete(passwordResets)
    .where(lt(passwordResets.expiresAt, daysBefore(now, RETENTION.passwordResetsDays)))
    .returning({ id: passwordResets.id });
  const failures = await db
    .delete(loginFailures)
    .where(lt(loginFailures.at, daysBefore(now, RETENTION.loginFailuresDays)))
    .returning({ id: loginFailures.id });
  const counters = await db
    .delete(rateLimitCounters)
    .where(lt(rateLimitCounters.windowStart, daysBefore(now, RETENTION.rateCountersDays)))
    .returning({ key: rateLimitCounters.key });
  const notices = await db
    .delete(accountNotices)
    .where(lt(accountNotices.createdAt, daysBefore(now, RETENTION.noticesDays)))
    .returning({ id: accountNotices.id });
  const links = await db
    .delete(loginLinks)
    .where(lt(loginLinks.expiresAt, daysBefore(now, RETENTION.loginLinksDays)))
    .returning({ id: loginLinks.id });
  const devices = await db
    .delete(loginDevices)
    .where(lt(loginDevices.lastUsedAt, daysBefore(now, deviceTtlDays)))
    .returning({ id: loginDevices.id });
  return {
    tokens: tokens.length,
    passwordResets: resets.length,
    loginFailures: failures.length,
    rateLimitCounters: counters.length,
    accountNotices: notices.length,
    loginLinks: links.length,
    loginDevices: devices.length,
  };
}
