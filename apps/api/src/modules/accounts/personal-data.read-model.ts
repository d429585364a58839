import { asc, eq, inArray, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import {
  accountNotices,
  addresses,
  eventCategories,
  events,
  loginDevices,
  lotteryEntries,
  orderItems,
  orders,
  recoveryWhatsapp,
  registrationCategories,
  registrations,
  registrationTransfers,
  teams,
  users,
  waitlistEntries,
} from '../../db/schema/index.ts';
import { notFound } from '../../plugins/errors.ts';
import { notesOf, tagsOf } from './customer-notes.ts';

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
    // waitlists and lotteries (with its e-mail), docs/decisions/0047 and 0051. Rows given with the
    // e-mail and no account are the account's only once its owner confirmed the address (decision
    // 0057): before that, whoever signed up with someone else's address would read their CPF.
    const email = user.emailConfirmedAt ? user.email.toLowerCase() : null;
    const registrationIds = myRegistrations.map((r) => r.registration.id);
    const transferWhere = [
      ...(registrationIds.length > 0 ? [inArray(registrationTransfers.registrationId, registrationIds)] : []),
      ...(email
        ? [
            sql`lower(${registrationTransfers.fromEmail}) = ${email}`,
            sql`lower(${registrationTransfers.toEmail}) = ${email}`,
          ]
        : []),
    ];
    const transfers =
      transferWhere.length === 0
        ? []
        : await tx
            .select({ transfer: registrationTransfers, eventName: events.name })
            .from(registrationTransfers)
            .innerJoin(registrations, eq(registrations.id, registrationTransfers.registrationId))
            .innerJoin(events, eq(events.id, registrations.eventId))
            .where(or(...transferWhere))
            .orderBy(asc(registrationTransfers.id));
    const waitlist = !email
      ? []
      : await tx
          .select({ entry: waitlistEntries, eventName: events.name, categoryName: eventCategories.name })
          .from(waitlistEntries)
          .innerJoin(events, eq(events.id, waitlistEntries.eventId))
          .innerJoin(eventCategories, eq(eventCategories.id, waitlistEntries.categoryId))
          .where(sql`lower(${waitlistEntries.email}) = ${email}`)
          .orderBy(asc(waitlistEntries.id));
    // Lottery entries (docs/decisions/0051): made with the account, or given with its confirmed e-mail.
    const lottery = await tx
      .select({ entry: lotteryEntries, eventName: events.name, categoryName: eventCategories.name })
      .from(lotteryEntries)
      .innerJoin(events, eq(events.id, lotteryEntries.eventId))
      .innerJoin(eventCategories, eq(eventCategories.id, lotteryEntries.categoryId))
      .where(
        email
          ? or(eq(lotteryEntries.userId, userId), sql`lower(${lotteryEntries.email}) = ${email}`)
          : eq(lotteryEntries.userId, userId),
      )
      .orderBy(asc(lotteryEntries.id));
    // The teams the account captains (docs/decisions/0067): their names and codes are the captain's.
    const captained = await tx
      .select({ team: teams, eventName: events.name })
      .from(teams)
      .leftJoin(events, eq(events.id, teams.eventId))
      .where(eq(teams.captainUserId, userId))
      .orderBy(asc(teams.id));
    const notices = await tx
      .select({ kind: accountNotices.kind, email: accountNotices.email, createdAt: accountNotices.createdAt })
      .from(accountNotices)
      .where(eq(accountNotices.userId, userId));
    const devices = await tx
      .select({ createdAt: loginDevices.createdAt, lastUsedAt: loginDevices.lastUsedAt })
      .from(loginDevices)
      .where(eq(loginDevices.userId, userId))
      .orderBy(asc(loginDevices.id));
    // What staff wrote about the person (docs/decisions/0080): theirs to read (LGPD art. 18 II).
    const staffNotes = await notesOf(tx, userId);
    // The reminders' own WhatsApp opt-in (docs/decisions/0084).
    const [reminderWhatsapp] = await tx
      .select()
      .from(recoveryWhatsapp)
      .where(eq(recoveryWhatsapp.userId, userId));
    const tags = await tagsOf(tx, userId);
    return {
      gerado_em: now.toISOString(),
      perfil: {
        username: user.username,
        email: user.email,
        email_confirmado_em: user.emailConfirmedAt?.toISOString() ?? null,
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
        equipe: r.team,
        retirada_pela_equipe_autorizada_em: r.teamPickupConsentAt?.toISOString() ?? null,
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
      equipes_como_capitao: captained.map(({ team: t, eventName }) => ({
        nome: t.name,
        codigo: t.joinCode,
        evento: eventName ?? 'Todas as corridas da temporada',
        criada_em: t.createdAt.toISOString(),
        fechada_em: t.closedAt?.toISOString() ?? null,
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
      lembretes_por_whatsapp: reminderWhatsapp
        ? { telefone: reminderWhatsapp.phone, consentimento_em: reminderWhatsapp.consentAt.toISOString() }
        : null,
      notas_da_loja: staffNotes.map((n) => ({ texto: n.texto, escrita_por: n.autor, em: n.criada_em })),
      etiquetas_da_loja: tags,
    };
  });
}

export type PersonalData = Awaited<ReturnType<typeof exportPersonalData>>;
