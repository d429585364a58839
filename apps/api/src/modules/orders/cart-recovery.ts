import { dateInTimeZone, STORE_TIME_ZONE } from '@passada/core/calendar';
import { companyIdentityLine } from '@passada/core/company';
import type { CartItem, RecoveryPanel, ServerCart, ServerCartLine } from '@passada/core/contracts/cart';
import { formatBRL, reaisToCents } from '@passada/core/money';
import { formatPhone } from '@passada/core/phone';
import { unitPrice } from '@passada/core/sale-price';
import type { Env } from '../../config/env.ts';
import type { Db, Tx } from '../../db/client.ts';
import type { CartItemRow } from '../../db/schema/index.ts';
import type { AppJobCatalog } from '../../jobs/job-catalog.ts';
import type { Jobs } from '../../jobs/jobs.ts';
import { badRequest, conflict } from '../../plugins/errors.ts';
import type { MailProvider } from '../../providers/mail/mail.provider.ts';
import { templateParameter, type WhatsAppProvider, whatsappNumber } from '../../providers/whatsapp/index.ts';
import type { CatalogService } from '../catalog/catalog.service.ts';
import type { EventsService } from '../events/events.service.ts';
import * as reads from './cart-recovery.read-model.ts';
import * as repo from './cart-recovery.repository.ts';

/** A cart or a registration left longer ago than this is not reminded (the reminder is about a fresh intent). */
const FRESH_FOR_MS = 72 * 3_600_000;
/** Units at or below which the reminder says how few are left. */
const FEW_UNITS = 3;

/**
 * The cart kept on the server for signed-in buyers and the reminders of carts and registrations left
 * unpaid (docs/decisions/0072). The browser sends the lines (product, colour, size, quantity) on every
 * change; prices, names and stock are read from the catalogue whenever the cart is shown or reminded.
 */
export function createCartRecovery(deps: {
  db: Db;
  jobs: Jobs<AppJobCatalog>;
  mail: MailProvider;
  whatsapp: WhatsAppProvider;
  env: Pick<Env, 'STORE_NAME' | 'publicUrl' | 'SERVER_CART_MAX_LINES'>;
  now: () => Date;
  catalog: Pick<CatalogService, 'getCartProducts'>;
  events: Pick<EventsService, 'getEvent'>;
}) {
  /** The lines rebuilt with today's catalogue; a product or combination no longer sold is left out. */
  async function rebuild(items: CartItemRow[]): Promise<ServerCartLine[]> {
    if (!items.length) return [];
    const found = await deps.catalog.getCartProducts([...new Set(items.map((i) => i.productId))]);
    const byId = new Map(found.filter((f) => !f.hidden).map((f) => [f.product.id, f.product]));
    return items.flatMap((i) => {
      const product = byId.get(i.productId);
      const entry = product?.stock.find((s) => s.color.id === i.colorId && s.size.id === i.sizeId);
      if (!product || !entry) return [];
      return [
        {
          id: product.id,
          name: product.name,
          price: unitPrice(product, entry),
          image: product.images[0] ?? '',
          quantity: i.quantity,
          size: i.sizeId,
          color: i.colorId,
          product_size: entry.size.name,
          product_color: entry.color.name,
          disponivel: entry.quantity,
        },
      ];
    });
  }

  async function get(userId: number): Promise<ServerCart> {
    const [cart, optedOut, whatsapp] = await Promise.all([
      repo.findCart(deps.db, userId),
      repo.hasOptedOut(deps.db, userId),
      repo.whatsappOf(deps.db, userId),
    ]);
    return {
      itens: await rebuild(cart?.items ?? []),
      lembretes: !optedOut,
      whatsapp: whatsapp ? formatPhone(whatsapp.phone) : null,
    };
  }

  /** One line per product, colour and size (quantities added, at most 99), within the cap. */
  function normalise(items: CartItem[]): CartItemRow[] {
    const lines = new Map<string, CartItemRow>();
    for (const i of items) {
      const row = { productId: i.produto, colorId: i.cor, sizeId: i.tamanho, quantity: i.quantidade };
      const known = lines.get(repo.cartKey(row));
      if (known) known.quantity = Math.min(99, known.quantity + row.quantity);
      else lines.set(repo.cartKey(row), row);
    }
    if (lines.size > deps.env.SERVER_CART_MAX_LINES) {
      throw badRequest(
        `O carrinho guarda no máximo ${deps.env.SERVER_CART_MAX_LINES} itens diferentes.`,
        'carrinho_cheio',
      );
    }
    return [...lines.values()];
  }

  /** The whole cart as the browser has it now. */
  async function save(userId: number, items: CartItem[]): Promise<ServerCart> {
    const rows = normalise(items);
    await deps.db.transaction((tx) => repo.saveCart(tx, userId, rows, deps.now()));
    return get(userId);
  }

  /**
   * Signing in: the browser's cart joins the one kept here. A line in both keeps the larger quantity
   * (the same cart seen twice is not doubled); lines only in one are kept.
   */
  async function merge(userId: number, items: CartItem[]): Promise<ServerCart> {
    const browser = normalise(items);
    await deps.db.transaction(async (tx) => {
      // Locked: two tabs signing in at once must not each write their own half.
      const kept = (await repo.findCart(tx, userId, { lock: true }))?.items ?? [];
      const lines = new Map(kept.map((i) => [repo.cartKey(i), { ...i }]));
      for (const line of browser) {
        const known = lines.get(repo.cartKey(line));
        if (known) known.quantity = Math.max(known.quantity, line.quantity);
        else lines.set(repo.cartKey(line), line);
      }
      const merged = [...lines.values()];
      if (merged.length > deps.env.SERVER_CART_MAX_LINES) merged.length = deps.env.SERVER_CART_MAX_LINES;
      await repo.saveCart(tx, userId, merged, deps.now());
    });
    return get(userId);
  }

  async function setReminders(userId: number, active: boolean): Promise<void> {
    await repo.setOptOut(deps.db, userId, !active, deps.now());
  }

  /**
   * The `orders.cart-recovery` job: each cart and registration left unpaid longer than staff's delay
   * gets its reminder recorded and its e-mail queued in the same transaction, so a reminder is never
   * recorded without its e-mail nor sent twice (the record's unique key).
   */
  async function sweep(): Promise<number> {
    const settings = await repo.readSettings(deps.db);
    if (!settings.active) return 0;
    const now = deps.now();
    const leftBefore = new Date(now.getTime() - settings.delayMinutes * 60_000);
    const since = new Date(now.getTime() - FRESH_FOR_MS);
    const due = [
      ...(await reads.cartsToRemind(deps.db, leftBefore, since)).map((c) => ({
        userId: c.userId,
        kind: 'carrinho' as const,
        ref: c.ref,
        eventId: null,
      })),
      ...(
        await reads.registrationsToRemind(deps.db, leftBefore, since, dateInTimeZone(now, STORE_TIME_ZONE))
      ).map((r) => ({ userId: r.userId, kind: 'inscricao' as const, ref: r.txid, eventId: r.eventId })),
    ];
    let sent = 0;
    for (const reminder of due) {
      await deps.db.transaction(async (tx) => {
        const id = await repo.insertReminder(tx, reminder, now);
        if (id === null) return;
        await deps.jobs.send('mail.cart-recovery', { reminderId: id }, { tx });
        if (await repo.whatsappOf(tx, reminder.userId))
          await deps.jobs.send('whatsapp.cart-recovery', { reminderId: id }, { tx });
        sent++;
      });
    }
    return sent;
  }

  /** One line of the cart's e-mail: what, how many, today's price, and whether it is nearly gone. */
  function mailLine(l: ServerCartLine): string {
    const price = formatBRL(reaisToCents(l.price) * l.quantity);
    const stock =
      l.disponivel === 0
        ? ' (esgotado no momento)'
        : l.disponivel <= FEW_UNITS
          ? ` (restam ${l.disponivel} no estoque)`
          : '';
    return `- ${l.name}, ${l.product_color}, tamanho ${l.product_size}: ${l.quantity} × ${formatBRL(reaisToCents(l.price))} = ${price}${stock}`;
  }

  /**
   * What the race costs today and, when its lot ends, after it ("1º lote até 10/12": the date the price
   * rises is in the lot's description); null when the event or the race is not on sale any more.
   */
  async function todaysPrice(eventId: number, categoryId: number | null): Promise<string | null> {
    if (categoryId === null) return null;
    const event = await deps.events.getEvent(eventId).catch(() => null);
    const category = event?.dias_evento.flatMap((d) => d.categorias).find((c) => c.id === categoryId);
    if (!category) return null;
    const now = formatBRL(reaisToCents(category.lote_atual?.preco ?? category.preco_inscricao));
    const lot = category.lote_atual ? ` no ${category.lote_atual.descricao}` : '';
    const next = category.proximo_preco
      ? `; depois, ${formatBRL(reaisToCents(category.proximo_preco.preco))}`
      : '';
    return `Hoje, ${category.nome_categoria} custa ${now}${lot}${next}.`;
  }

  /** A cart reminder's lines rebuilt now, or null when the cart was bought, emptied or started again. */
  async function cartOf(reminder: { userId: number; ref: string }): Promise<ServerCartLine[] | null> {
    const cart = await repo.findCart(deps.db, reminder.userId);
    if (!cart?.startedAt || reads.cartRef(reminder.userId, cart.startedAt) !== reminder.ref) return null;
    const lines = await rebuild(cart.items);
    return lines.length ? lines : null;
  }

  /** A registration reminder's event and today's price, or null when the event is gone. */
  async function raceOf(reminder: { eventId: number | null; ref: string }) {
    if (reminder.eventId === null) return null;
    const name = await reads.eventName(deps.db, reminder.eventId);
    if (!name) return null;
    const price = await todaysPrice(reminder.eventId, await reads.chargeCategory(deps.db, reminder.ref));
    return { eventId: reminder.eventId, name, price };
  }

  /** A reminder still to be sent: the account's contact, unless it opted out since. */
  async function stillDue(reminderId: number) {
    const reminder = await repo.findReminder(deps.db, reminderId);
    if (!reminder) return null;
    const to = await reads.recipient(deps.db, reminder.userId);
    if (!to || (await repo.hasOptedOut(deps.db, reminder.userId))) return null;
    return { reminder, to, base: deps.env.publicUrl.replace(/\/+$/, '') };
  }

  /**
   * The `mail.cart-recovery` job. Checked again when it runs: an account that opted out, bought or
   * emptied its cart meanwhile gets nothing.
   */
  async function sendMail(reminderId: number): Promise<void> {
    const due = await stillDue(reminderId);
    if (!due) return;
    const { reminder, to, base } = due;
    const stop = `Não quer mais estes lembretes? Desative em Minha conta: ${base}/user`;
    if (reminder.kind === 'carrinho') {
      const lines = await cartOf(reminder);
      if (!lines) return;
      await deps.mail.send({
        to: to.email,
        subject: `${deps.env.STORE_NAME}: seu carrinho está guardado`,
        text: [
          `Olá, ${to.firstName}!`,
          '',
          'Você deixou estes itens no carrinho. Os preços e o estoque abaixo são os de agora:',
          '',
          ...lines.map(mailLine),
          '',
          'O carrinho não reserva as peças: o estoque vai para quem pagar primeiro.',
          `Continuar a compra: ${base}/revisar-pedido`,
          '',
          'Este lembrete é enviado uma vez por carrinho.',
          stop,
          '',
          companyIdentityLine(),
        ].join('\n'),
        action: { label: 'Continuar a compra', url: `${base}/revisar-pedido` },
      });
      return;
    }
    const race = await raceOf(reminder);
    if (!race) return;
    await deps.mail.send({
      to: to.email,
      subject: `${deps.env.STORE_NAME}: sua inscrição em ${race.name} não foi concluída`,
      text: [
        `Olá, ${to.firstName}!`,
        '',
        `Sua inscrição em ${race.name} ficou sem pagamento e não foi feita: nenhuma vaga está guardada.`,
        race.price ?? 'As inscrições continuam abertas; o preço é o do lote de hoje.',
        '',
        `Inscrever-se de novo: ${base}/eventos/register/${race.eventId}`,
        '',
        'Este lembrete é enviado uma vez.',
        stop,
        '',
        companyIdentityLine(),
      ].join('\n'),
      action: { label: 'Inscrever-se de novo', url: `${base}/eventos/register/${race.eventId}` },
    });
  }

  /**
   * The `whatsapp.cart-recovery` job (docs/decisions/0084): the same reminder by WhatsApp, to an account
   * that ticked that opt-in, checked again when it runs; the number's "PARAR" blocks it in the provider.
   */
  async function sendWhatsApp(reminderId: number): Promise<void> {
    const due = await stillDue(reminderId);
    const optIn = due && (await repo.whatsappOf(deps.db, due.reminder.userId));
    if (!due || !optIn) return;
    const { reminder, to, base } = due;
    const message = { to: whatsappNumber(optIn.phone), consentAt: optIn.consentAt };
    if (reminder.kind === 'carrinho') {
      const lines = await cartOf(reminder);
      if (!lines) return;
      const [first] = lines;
      const what =
        lines.length === 1 && first ? `${first.quantity} × ${first.name}` : `${lines.length} itens`;
      await deps.whatsapp.send({
        ...message,
        template: 'lembrete_carrinho',
        parameters: [to.firstName, what, deps.env.STORE_NAME, `${base}/revisar-pedido`].map(
          templateParameter,
        ),
      });
      return;
    }
    const race = await raceOf(reminder);
    if (!race) return;
    await deps.whatsapp.send({
      ...message,
      template: 'lembrete_inscricao',
      parameters: [
        to.firstName,
        race.name,
        race.price ?? 'As inscrições continuam abertas.',
        `${base}/eventos/register/${race.eventId}`,
      ].map(templateParameter),
    });
  }

  /** The account's WhatsApp opt-in for the reminders: a number with its DDD, or null to withdraw it. */
  async function setWhatsApp(userId: number, phone: string | null): Promise<void> {
    await repo.setWhatsapp(deps.db, userId, phone, deps.now());
  }

  /** The back office's view: the settings and what the reminders did in the last 30 days. */
  async function panel(): Promise<RecoveryPanel> {
    const settings = await repo.readSettings(deps.db);
    const since = new Date(deps.now().getTime() - 30 * 86_400_000);
    const counts = new Map((await repo.remindersSince(deps.db, since)).map((r) => [r.kind, r.n]));
    return {
      ativa: settings.active,
      atraso_minutos: settings.delayMinutes,
      lockVersion: settings.lockVersion,
      ultimos_30_dias: {
        lembretes_carrinho: counts.get('carrinho') ?? 0,
        lembretes_inscricao: counts.get('inscricao') ?? 0,
        compras_depois: await reads.boughtAfterReminder(deps.db, since),
      },
    };
  }

  async function saveSettings(
    tx: Tx,
    body: { ativa: boolean; atraso_minutos: number; lockVersion: number },
  ): Promise<void> {
    const saved = await repo.writeSettings(
      tx,
      { active: body.ativa, delayMinutes: body.atraso_minutos, lockVersion: body.lockVersion },
      deps.now(),
    );
    if (!saved) {
      throw conflict(
        'Outra pessoa alterou estes lembretes agora. Recarregue para ver e tente de novo.',
        'versao_desatualizada',
      );
    }
  }

  return {
    get,
    save,
    merge,
    setReminders,
    sweep,
    sendMail,
    sendWhatsApp,
    setWhatsApp,
    panel,
    saveSettings,
    forgetUser: repo.deleteOfUser,
  };
}

export type CartRecovery = ReturnType<typeof createCartRecovery>;
