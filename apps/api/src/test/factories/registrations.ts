import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { isValidCpf } from '@passada/core/documents';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import jsQR from 'jsqr';
import sharp from 'sharp';
import { beforeAll, expect } from 'vitest';
import { registrations } from '../../db/schema/index.ts';
import { STANDARD_TERMS, termsVersion } from '../../modules/events/events.service.ts';
import type { ClockedTestApp } from '../test-app.ts';
import { type MadeEvent, makeEvent } from './events.ts';
import { type Buyer, makeBuyer } from './orders.ts';
import { createStaffAndLogin, type TestStaff } from './painel.ts';
import { cardToken } from './payments.ts';

/** The version of the standard termo, which events made by the factory show. */
export const STANDARD_TERMS_VERSION = termsVersion(STANDARD_TERMS);

/** A valid CPF from 9 base digits, its check digits found with core's own validation. */
export function cpfFrom(base: number): string {
  const head = String(base).padStart(9, '0');
  for (let d = 0; d < 100; d++) {
    const cpf = `${head}${String(d).padStart(2, '0')}`;
    if (isValidCpf(cpf)) return cpf;
  }
  throw new Error(`sem CPF para ${head}`);
}

export const CPF = '40364478829';
export const OTHER_CPF = '52998224725';

export function participant(event: MadeEvent, categories: number[], overrides: Record<string, unknown> = {}) {
  return {
    nome_completo: 'Maria da Silva',
    cpf: '403.644.788-29',
    data_nascimento: '1990-05-10',
    genero: 'Feminino' as const,
    numero_contato: '(85) 99999-9999',
    email: 'maria.participante@example.com',
    evento: event.id,
    categoria_evento: categories,
    street: 'Av. Beira Mar, 100',
    zip_code: '60165-121',
    state: 'CE',
    city: 'Fortaleza',
    neighborhood: 'Meireles',
    contato_emergencia_nome: 'João da Silva',
    contato_emergencia_telefone: '(85) 98888-7777',
    aceite_termo: true as const,
    termo_versao: STANDARD_TERMS_VERSION,
    // The first shirt size, when the event's kit has any.
    ...(event.kitSizes?.[0] ? { tamanho_camisa: event.kitSizes[0].id } : {}),
    ...overrides,
  };
}

/**
 * A maker of participants, each with a CPF and an e-mail of their own, numbered from `firstCpf`: each
 * test file starts from its own number, so two files sharing the database never share a CPF.
 */
export function participantsFrom(firstCpf: number) {
  let seq = firstCpf;
  return (event: MadeEvent, name: string, category: number, overrides: Record<string, unknown> = {}) => {
    const cpf = cpfFrom(seq++);
    return participant(event, [category], {
      nome_completo: name,
      cpf,
      email: `${name.split(' ')[0]!.toLowerCase()}.${seq}@example.com`,
      ...overrides,
    });
  };
}

/** A Pix charge for a registration draft, as the finish page asks for it. */
export function registrationPix(
  app: FastifyInstance,
  draft: unknown,
  total: number,
  headers: Record<string, string>,
) {
  return app.inject({
    method: 'POST',
    url: '/api/pagar-pix/',
    headers,
    payload: { total, descricao: 'Inscrição', finalidade: 'inscricao', inscricao: draft },
  });
}

/** A card payment of a registration draft by the account holder (a simulated test card number). */
export async function registrationCard(
  app: FastifyInstance,
  input: {
    number: string;
    draft: unknown;
    total: number;
    user: { email: string; headers: Record<string, string> };
    key: string;
    /** 1 unless given: more carry the shop's interest (the server reckons it). */
    installments?: number;
  },
) {
  return app.inject({
    method: 'POST',
    url: '/api/pagar-cartao/',
    headers: { ...input.user.headers, 'idempotency-key': input.key },
    payload: {
      birth: '1985-07-30',
      payment_token: await cardToken(app, {
        number: input.number,
        holderName: 'Titular da Conta',
        holderDocument: OTHER_CPF,
      }),
      name: 'Titular da Conta',
      cpf: OTHER_CPF,
      email: input.user.email,
      total: input.total,
      installments: input.installments ?? 1,
      finalidade: 'inscricao',
      inscricao: input.draft,
    },
  });
}

/**
 * The text of a kit-pickup QR code (a PNG data URL, as the lookup page and the e-mail show it), read
 * back from its pixels the way a scanner at the desk reads it.
 */
export async function readQr(dataUrl: string): Promise<string> {
  const png = Buffer.from(dataUrl.replace(/^data:image\/png;base64,/, ''), 'base64');
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const code = jsQR(new Uint8ClampedArray(data), info.width, info.height);
  if (!code) throw new Error('QR code ilegível');
  return code.data;
}

/** The kit-pickup ticket of the registration `cpf` holds in `eventId`, from the buyer's lookup page. */
export async function ticketOf(
  app: FastifyInstance,
  headers: Record<string, string>,
  cpf: string,
  eventId: number,
): Promise<string> {
  const res = await app.inject({
    method: 'GET',
    url: `/api/participantes/cpf/${cpf.replace(/\D/g, '')}/?evento=${eventId}`,
    headers,
  });
  if (res.statusCode !== 200) throw new Error(`consulta da inscrição respondeu ${res.statusCode}`);
  return readQr(res.json().qr_code as string);
}

/** The bytes of every attachment with Content-ID `cid` in the outbox's raw `.eml` files. */
export function outboxAttachments(dataDir: string, cid: string): Buffer[] {
  const dir = path.join(dataDir, 'outbox');
  const found: Buffer[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.eml'))) {
    const raw = readFileSync(path.join(dir, file), 'utf8');
    for (const part of raw.split(/\n--[^\n]+\n/)) {
      const split = part.indexOf('\n\n');
      const head = part.slice(0, split);
      if (!head.toLowerCase().includes(`content-id: <${cid.toLowerCase()}>`)) continue;
      found.push(
        Buffer.from(
          part
            .slice(split + 2)
            .replace(/\s+/g, '')
            .replace(/--.*$/, ''),
          'base64',
        ),
      );
    }
  }
  return found;
}

/** The card number the simulated provider approves at once. */
export const APPROVED_CARD = '4111111111111111';

/**
 * A request through the app's HTTP layer as someone (their `Token` header) or no one, with a JSON body
 * when given: `request('PUT', buyer, url, body)`. `app` is read at each call (a test app booted later).
 */
export const requestAs =
  (app: () => FastifyInstance) =>
  (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    who: { headers: Record<string, string> } | null,
    url: string,
    payload?: object,
  ) =>
    app().inject({ method, url, headers: who?.headers ?? {}, ...(payload ? { payload } : {}) });

/**
 * The world of the tests of a registration after its sale (cancellations, transfers, changes): a buyer,
 * a friend who takes a registration over, an admin, events of a 5 km (R$ 50) and a 10 km (R$ 80) race
 * on 28 November 2026 (registrations until the 27th, as of `today`), and registrations of the 5 km paid
 * by the buyer's approved card. Each file starts its CPFs at its own `firstCpf` and its e-mails with its
 * own `email` prefix. The people are made in a `beforeAll`: read them from the world inside a test.
 */
export function paidRegistrationWorld(
  t: ClockedTestApp,
  options: {
    firstCpf: number;
    email: string;
    /** The events' day, aaaa-mm-dd (the clock's). */
    today: string;
    /** Places of the 10 km (10 unless given). */
    tenKPlaces?: number;
  },
) {
  let cpfSeq = options.firstCpf;
  const people = {} as { buyer: Buyer; friend: Buyer; admin: TestStaff };
  beforeAll(async () => {
    people.buyer = await makeBuyer(t.app);
    people.friend = await makeBuyer(t.app);
    people.admin = await createStaffAndLogin(t.app, 'admin');
  });

  const db = () => t.app.db;
  const nextCpf = () => cpfFrom(cpfSeq++);
  const request = requestAs(() => t.app);

  /** 5 km R$ 50 (10 places) and 10 km R$ 80, one shirt size (M). */
  const newEvent = (name: string) =>
    makeEvent(db(), {
      name,
      today: options.today,
      startDate: '2026-11-28',
      registrationDeadline: '2026-11-27',
      days: [
        [
          { name: '5 km', priceCents: 5000, placesLeft: 10 },
          { name: '10 km', priceCents: 8000, placesLeft: options.tenKPlaces ?? 10 },
        ],
      ],
      kitSizes: [{ size: 'M', left: 10 }],
    });
  /** The event's 5 km and 10 km. */
  const cats = (e: MadeEvent) => e.days[0]!.categories.map((c) => c.id) as [number, number];

  /** A registration draft paid by card (approved), by the buyer unless `who` is given. */
  const pay = (draft: object, total: number, who: Buyer = people.buyer) =>
    registrationCard(t.app, { number: APPROVED_CARD, draft, total, user: who, key: randomUUID() });

  /** A 5 km registration with a shirt, of a CPF of its own, paid by the buyer's card. */
  async function paidRegistration(event: MadeEvent) {
    const cpf = nextCpf();
    const draft = participant(event, [cats(event)[0]], {
      cpf,
      email: `${options.email}.${cpf}@example.com`,
      tamanho_camisa: event.kitSizes![0]!.id,
    });
    const paid = await pay(draft, 50);
    expect(paid.statusCode, paid.body).toBe(200);
    const id = paid.json().inscricao_id as number;
    const [row] = await db().select().from(registrations).where(eq(registrations.id, id));
    return { id, chargeId: row!.chargeId, cpf };
  }

  /** The admin saves the event's after-sale rules with these changes. */
  async function saveRules(event: MadeEvent, changes: Record<string, unknown>) {
    const url = `/api/painel/events/${event.id}/pos-venda/`;
    const { texto: _, ...body } = (await request('GET', people.admin, url)).json();
    const saved = await request('PUT', people.admin, url, { ...body, ...changes });
    expect(saved.statusCode, saved.body).toBe(200);
  }

  return {
    get buyer() {
      return people.buyer;
    },
    get friend() {
      return people.friend;
    },
    get admin() {
      return people.admin;
    },
    db,
    nextCpf,
    request,
    newEvent,
    cats,
    pay,
    paidRegistration,
    saveRules,
  };
}
