import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { addDays, dateInTimeZone, STORE_TIME_ZONE } from '@passada/core/calendar';
import type { Product } from '@passada/core/contracts/catalog';
import type { Event } from '@passada/core/contracts/events';
import { isValidCpf } from '@passada/core/documents';
import { type APIRequestContext, expect, type Page } from '@playwright/test';
import jsQR from 'jsqr';
import sharp from 'sharp';

/** Reads the seeded catalogue through the API, so the tests follow the data instead of hard-coding it. */
export async function findProducts(request: APIRequestContext, path = '/api/products/'): Promise<Product[]> {
  const res = await request.get(path);
  if (!res.ok()) throw new Error(`${path} answered ${res.status()}`);
  return (await res.json()) as Product[];
}

/** A product with a colour+size combination of at least `min` units. */
export async function productWithStock(request: APIRequestContext, path: string, min = 2) {
  for (const product of await findProducts(request, path)) {
    const entry = product.stock.find((s) => s.quantity >= min);
    if (entry) return { product, entry };
  }
  throw new Error(`no product in ${path} with ${min}+ units of one combination`);
}

/**
 * Puts a product staff created through the API on sale (a new product is a draft): one photo, sent and
 * made ready by the server's queue, then "publicar". Its stock must be in already. Answers the new version.
 */
export async function publishProduct(
  request: APIRequestContext,
  headers: Record<string, string>,
  productId: number,
): Promise<number> {
  const url = `/api/painel/products/${productId}/`;
  const buffer = await sharp({ create: { width: 600, height: 720, channels: 3, background: '#ff6b57' } })
    .jpeg()
    .toBuffer();
  const sent = await request.post(`${url}images/`, {
    headers,
    multipart: { foto: { name: 'frente.jpg', mimeType: 'image/jpeg', buffer } },
  });
  expect(sent.status()).toBe(202);
  let read: { versao: number; images: Array<{ status: string }> } = { versao: 0, images: [] };
  await expect
    .poll(async () => {
      read = await (await request.get(url, { headers })).json();
      return read.images.map((i) => i.status).join();
    })
    .toBe('pronta');
  const published = await request.post(`${url}publicar/`, { headers, data: { versao: read.versao } });
  expect(published.status()).toBe(200);
  return ((await published.json()) as { versao: number }).versao;
}

export async function productWithSoldOutCombination(request: APIRequestContext) {
  for (const product of await findProducts(request)) {
    const entry = product.stock.find((s) => s.quantity === 0);
    if (entry) return { product, entry };
  }
  throw new Error('no sold-out combination in the demo catalogue');
}

export interface Shopper {
  username: string;
  email: string;
  full_name: string;
  password: string;
  token: string;
  addressId: number;
}

/** A new account with a primary address in Fortaleza, made through the API; returns its token. */
export async function createShopper(request: APIRequestContext, prefix: string): Promise<Shopper> {
  const run = `${prefix}_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const user = {
    username: run,
    full_name: 'Cida Corredora',
    email: `${run}@example.com`,
    password: 'passada de sábado cedo',
  };
  const created = await request.post('/api/users/', { data: user });
  if (created.status() !== 201) throw new Error(`sign-up answered ${created.status()}`);
  const login = await request.post('/api/token-auth/', {
    data: { username: user.username, password: user.password },
  });
  const { token } = (await login.json()) as { token: string };
  const address = await request.post('/api/users/addresses/', {
    headers: { authorization: `Token ${token}` },
    data: {
      full_name: user.full_name,
      zip_code: '60165121',
      state: 'CE',
      city: 'Fortaleza',
      neighborhood: 'Meireles',
      street: 'Av. Beira Mar',
      number: '500',
      phone: '85988887777',
      is_primary: true,
    },
  });
  if (address.status() !== 201) throw new Error(`address answered ${address.status()}`);
  const { id: addressId } = (await address.json()) as { id: number };
  const { username, email, full_name, password } = user;
  return { username, email, full_name, password, token, addressId };
}

/**
 * Pays an order or a registration by Pix through the public API, as the shop's checkout does: asks
 * the total the server expects, charges it, and has the sandbox settle it. Returns the settled charge.
 */
export async function payWithPix(
  request: APIRequestContext,
  token: string,
  purpose: 'pedido' | 'inscricao',
  draft: object,
): Promise<{ pedido_id?: number; inscricao_id?: number }> {
  const headers = { authorization: `Token ${token}` };
  const description = purpose === 'pedido' ? 'Pedido' : 'Inscrição';
  const pay = (total: number) =>
    request.post('/api/pagar-pix/', {
      headers,
      data: { total, descricao: description, finalidade: purpose, [purpose]: draft },
    });
  const total = (await (await pay(0.01)).json()).total_correto as number;
  const { txid } = await (await pay(total)).json();
  return (await request.post(`/api/simulador/pix/${txid}/pagar`, { headers })).json();
}

/** The back office's demo staff accounts. */
/** A valid CPF no other test uses: random base digits, check digits found by core's validation. */
export function freshCpf(): string {
  for (;;) {
    const base = String(Math.floor(100_000_000 + Math.random() * 800_000_000));
    for (let d = 0; d < 100; d++) {
      const cpf = `${base}${String(d).padStart(2, '0')}`;
      if (isValidCpf(cpf)) return cpf;
    }
  }
}

/**
 * One product of the demo catalogue bought by a new shopper and paid by Pix through the public API,
 * with the "CPF na nota" the checkout asks (the NF-e is issued to it). Shipped by PAC. `quantity` units of
 * a colour and size with at least `min` in stock; answers the product and that combination too.
 */
export async function paidProductOrder(request: APIRequestContext, prefix: string, quantity = 1, min = 2) {
  const { product, entry } = await productWithStock(request, '/api/products/', min);
  const shopper = await createShopper(request, prefix);
  const paid = await payWithPix(request, shopper.token, 'pedido', {
    items: [{ product: product.id, quantity, color: entry.color.id, size: entry.size.id }],
    address_id: shopper.addressId,
    frete: 'PAC',
    metodo_pagamento: 'pix',
    cpf: CPF_NA_NOTA,
  });
  return { orderId: paid.pedido_id as number, shopper, product, entry };
}

/**
 * On a staff order page: the NF-e the offline issuer authorised after the payment (its job runs a
 * moment after), with its key and DANFE link.
 */
export async function expectNfeAuthorised(page: Page): Promise<void> {
  const notas = page.getByRole('region', { name: 'Notas fiscais' });
  await expect(notas).toContainText(/NF-e nº \d+ · Autorizada/, { timeout: 20_000 });
  await expect(notas).toContainText(/Chave de acesso: 23\d{2} \d{4}/);
  await expect(notas.getByRole('link', { name: 'DANFE (PDF)' })).toBeVisible();
}

/**
 * Staff signed in: "Gerar etiquetas" for one order from the orders list. Answers the S10 object code
 * the label provider filled in.
 */
export async function generateLabel(page: Page, orderId: number): Promise<string> {
  await page.goto(`/painel/pedidos?busca=${orderId}`);
  await expect(page.getByRole('link', { name: String(orderId), exact: true })).toBeVisible();
  await page.getByRole('checkbox', { name: `Selecionar pedido nº ${orderId}` }).check();
  await page.getByRole('button', { name: 'Gerar etiquetas' }).click();
  const result = page.getByRole('status', { name: 'Etiquetas' });
  await expect(result).toContainText(`Pedido nº ${orderId}: etiqueta comprada, rastreio`);
  return /rastreio ([A-Z]{2}\d{9}[A-Z]{2})/.exec((await result.textContent()) ?? '')?.[1] ?? '';
}

/**
 * A registration paid by Pix on the direct path, through the public API as the event form sends it,
 * in the first open event's first category with places left; a fresh CPF unless one is given.
 */
export async function paidRegistration(
  request: APIRequestContext,
  person: { nome_completo: string; cpf?: string; data_nascimento?: string; genero?: string },
  /** The account paying it; a new one unless given (an account with several registrations). */
  buyer?: Shopper,
  /** This event's category instead of the first open one. */
  at?: { eventId: number; categoryId: number },
) {
  const events = at
    ? [(await (await request.get(`/api/events/${at.eventId}/`)).json()) as Event]
    : ((await (await request.get('/api/events/')).json()) as Event[]);
  const event = events.find(
    (e) => e.inscricoes_abertas && e.dias_evento[0]!.categorias.some((c) => c.quantidade_disponivel > 0),
  )!;
  const category = event.dias_evento[0]!.categorias.find(
    (c) => c.quantidade_disponivel > 0 && (!at || c.id === at.categoryId),
  )!;
  const shopper = buyer ?? (await createShopper(request, 'inscrito'));
  const cpf = person.cpf ?? freshCpf();
  const draft = {
    data_nascimento: '1989-10-21',
    genero: 'Masculino',
    ...person,
    cpf,
    numero_contato: '(85) 98888-1234',
    email: shopper.email,
    evento: event.id,
    categoria_evento: [category.id],
    street: 'Rua do Sol, 10',
    zip_code: '60165-121',
    state: 'CE',
    city: 'Fortaleza',
    neighborhood: 'Meireles',
    // What every race asks besides the person: a shirt size left, an emergency contact, the termo.
    tamanho_camisa: event.kit.tamanhos.find((k) => k.quantidade_disponivel > 0)?.id,
    contato_emergencia_nome: 'Ana Contato',
    contato_emergencia_telefone: '(85) 96666-5555',
    aceite_termo: true,
    termo_versao: event.termo_versao,
  };
  const paid = await payWithPix(request, shopper.token, 'inscricao', draft);
  return { event, category, cpf, shopper, id: paid.inscricao_id as number };
}

/**
 * The kit-pickup ticket of a registration, as the buyer's "Já me inscrevi" page shows it: its QR
 * image read back from the pixels, the text a scanner at the desk would type.
 */
export async function kitTicket(
  request: APIRequestContext,
  shopper: { token: string },
  cpf: string,
  eventId: number,
): Promise<{ code: string; size: string | null }> {
  const res = await request.get(`/api/participantes/cpf/${cpf.replace(/\D/g, '')}/?evento=${eventId}`, {
    headers: { authorization: `Token ${shopper.token}` },
  });
  if (!res.ok()) throw new Error(`lookup answered ${res.status()}`);
  const lookup = (await res.json()) as { qr_code: string; tamanho_camisa: string | null };
  const png = Buffer.from(lookup.qr_code.replace(/^data:image\/png;base64,/, ''), 'base64');
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const qr = jsQR(new Uint8ClampedArray(data), info.width, info.height);
  if (!qr) throw new Error('unreadable QR code');
  return { code: qr.data, size: lookup.tamanho_camisa };
}

export const STAFF = {
  admin: { email: 'admin@passada.com.br', password: 'painel-demo-2026' },
  operator: { email: 'operador@passada.com.br', password: 'painel-demo-2026' },
  /** Everything but refunds and staff (docs/decisions/0032). */
  manager: { email: 'gerente@passada.com.br', password: 'painel-demo-2026' },
  /** Orders, refunds, reports and customers. */
  finance: { email: 'financeiro@passada.com.br', password: 'painel-demo-2026' },
  /** A kit-desk volunteer assigned to the demo's "Corrida do Sol Nascente" only. */
  volunteer: { email: 'checkin@passada.com.br', password: 'painel-demo-2026' },
} as const;

/** Opens a back-office page, which asks for the login first, and signs the staff member in. */
export async function signInStaff(page: Page, who: { email: string; password: string }, path: string) {
  await page.goto(path);
  // Every back-office page sends a signed-out visitor to the login, which then brings them back.
  await expect(page).toHaveURL(new RegExp(`/painel/login\\?next=${encodeURIComponent(path)}$`));
  await page.getByLabel('E-mail').fill(who.email);
  await page.getByLabel('Senha').fill(who.password);
  await page.getByRole('button', { name: 'Entrar' }).click();
  // Signed in once the login has sent the page back: a spec going straight to another address before
  // that would land on the login again.
  await expect(page).not.toHaveURL(/\/painel\/login/, { timeout: 20_000 });
}

/** Signs the page in before any script runs: the token the shop keeps in localStorage. */
export async function signIn(page: Page, token: string): Promise<void> {
  await page.addInitScript((t) => {
    if (!sessionStorage.getItem('signed-in-once')) {
      sessionStorage.setItem('signed-in-once', '1');
      localStorage.setItem('token', t);
    }
  }, token);
}

/**
 * Slows the page's CPU `rate` times, as on a cheap phone or a busy machine, until the returned function
 * is called: typing then outruns the page's rendering, which is when masked inputs used to lose keys.
 */
export async function slowCpu(page: Page, rate: number): Promise<() => Promise<void>> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
  return async () => {
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    await cdp.detach();
  };
}

/** On a product page: picks the colour and the size by their buttons' names. */
export async function chooseColorAndSize(page: Page, color: string, size: string): Promise<void> {
  await page.getByRole('group', { name: /^Cor/ }).getByRole('button', { name: color, exact: true }).click();
  await page
    .getByRole('group', { name: /^Tamanho/ })
    .getByRole('button', { name: size, exact: true })
    .click();
}

/** The colour as picture file names spell it ("Verde-limão" → "verde-limao"). */
export function colorSlug(name: string): string {
  return name.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, '-');
}

/** An open event with a category that still has `min` places, read from the seeded data. */
export async function openEvent(
  request: APIRequestContext,
  min = 5,
): Promise<{ event: Event; categoryId: number }> {
  const events = (await (await request.get('/api/events/')).json()) as Event[];
  for (const e of events) {
    if (!e.inscricoes_abertas) continue;
    const category = e.dias_evento.flatMap((d) => d.categorias).find((c) => c.quantidade_disponivel >= min);
    if (category) return { event: e, categoryId: category.id };
  }
  throw new Error('no open event with places in the demo data');
}

/**
 * A race made as the back office makes one (one day 25 days from today, one category with 50 places,
 * free unless `price` in reais is given, shirts in M); its id and its category's.
 */
export async function createFreeRace(
  request: APIRequestContext,
  race: {
    name: string;
    organizer: string;
    city: string;
    state: string;
    category: string;
    about: string;
    price?: number;
  },
): Promise<{ eventId: number; categoryId: number }> {
  const login = await request.post('/api/painel/auth/login/', { data: STAFF.admin });
  expect(login.status()).toBe(200);
  const { token } = (await login.json()) as { token: string };
  const today = dateInTimeZone(new Date(), STORE_TIME_ZONE);
  const created = await request.post('/api/painel/events/', {
    headers: { authorization: `Token ${token}` },
    data: {
      nome_evento: race.name,
      organizer: race.organizer,
      city: race.city,
      state: race.state,
      prazo_inscricao: addDays(today, 20),
      hora_evento: '06:00',
      descricao_evento: race.about,
      regulamento: `Regulamento: ${race.name}.`,
      kit_tamanhos: [{ tamanho: 'M', capacidade: 20 }],
      dias_evento: [
        {
          data: addDays(today, 25),
          categorias: [{ nome_categoria: race.category, preco_inscricao: race.price ?? 0, capacidade: 50 }],
        },
      ],
    },
  });
  expect(created.status()).toBe(201);
  const eventId = ((await created.json()) as { id: number }).id;
  const event = (await (await request.get(`/api/events/${eventId}/`)).json()) as Event;
  return { eventId, categoryId: event.dias_evento[0]!.categorias[0]!.id };
}

/**
 * On a race's page: its category, "Confirmar inscrição" and "Para mim", up to the registration form; the
 * category's button says "Gratuita" unless its `price` ("R$ 80,00") is given.
 */
export async function openFreeRegistrationForMe(page: Page, category: string, price = 'Gratuita') {
  const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  await page.getByRole('button', { name: new RegExp(`^${literal(category)} ${literal(price)}`) }).click();
  await page.getByRole('button', { name: 'Confirmar inscrição' }).click();
  await page
    .getByRole('dialog', { name: 'Para quem é a inscrição?' })
    .getByRole('button', { name: 'Para mim' })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Finalizar inscrição' })).toBeVisible();
}

/**
 * The form's person (a fresh CPF, the birth date, the gender) and race fields, then "Confirmar
 * inscrição" of a free race, through the success dialog to "Já me inscrevi"; answers the CPF.
 */
export async function confirmFreeRegistration(
  page: Page,
  eventId: number,
  person: { birth: string; gender: 'Feminino' | 'Masculino' },
): Promise<string> {
  const cpf = freshCpf();
  await page.getByLabel('CPF', { exact: true }).fill(cpf);
  await page.getByLabel('Data de nascimento').fill(person.birth);
  await page.getByLabel(person.gender).check();
  await fillRaceFields(page, 'M');
  await page.getByRole('button', { name: 'Confirmar inscrição' }).click();
  await expect(page.getByRole('dialog', { name: 'Cadastro Realizado com Sucesso!' })).toBeVisible();
  await page.getByRole('button', { name: 'Fechar' }).click();
  await expect(page).toHaveURL(new RegExp(`/eventos/register/${eventId}/ja-me-inscrevi$`), {
    timeout: 15_000,
  });
  return cpf;
}

/** Shirt size, emergency contact and the termo, which every registration asks. */
export async function fillRaceFields(page: Page, size: string) {
  await page.getByLabel('Tamanho da camisa').selectOption({ label: size });
  await page.getByLabel('Contato de emergência (nome)').fill('Ana Contato');
  await page.getByLabel('Telefone do contato de emergência').fill('(85) 96666-5555');
  await page.getByLabel('Li e aceito o termo de responsabilidade').check();
}

/** The event form for someone else, filled and added to the cart (not paid there). */
export async function addParticipantToCart(
  page: Page,
  eventId: number,
  categoryId: number,
  person: { name: string; cpf: string; birth: string; gender: string },
  size: string,
) {
  await page.goto(
    `/eventos/register/${eventId}/finalizar?paraMim=false&eventoId=${eventId}&categorias=${categoryId}`,
  );
  await page.getByLabel('Nome completo').fill(person.name);
  await page.getByLabel('CPF', { exact: true }).fill(person.cpf);
  await page.getByLabel('Data de nascimento').fill(person.birth);
  await page.getByLabel(person.gender).check();
  await page.getByLabel('Endereço (rua e número)').fill('Rua dos Corredores, 42');
  await page.getByLabel('Bairro').fill('Aldeota');
  await page.getByLabel('Cidade').fill('Fortaleza');
  await page.getByLabel('Estado').selectOption('CE');
  await page.getByLabel('CEP').fill('60150-160');
  await page.getByLabel('Telefone de contato').fill('(85) 97777-6666');
  await page.getByLabel('E-mail').fill(`${person.cpf}@example.com`);
  await fillRaceFields(page, size);
  await page.getByRole('button', { name: 'Adicionar ao carrinho' }).click();
  const added = page.getByRole('alertdialog', {
    name: new RegExp(`^Inscrição de ${person.name} adicionada`),
  });
  await expect(added).toBeVisible();
  await added.getByRole('button', { name: 'OK' }).click();
  await expect(page).toHaveURL(new RegExp(`/eventos/register/${eventId}$`));
}

/**
 * The e-mails the server wrote to its outbox (`.eml` files under the test data folder) for `to`, newest
 * first, with their quoted-printable text decoded as UTF-8. Mail goes out from a background job, so a
 * test polls this until the message it waits for is there.
 */
export function outboxMails(to: string): string[] {
  const dir = path.join(process.env.E2E_DATA_DIR ?? '', 'outbox');
  // The mail job writes the outbox folder with its first message.
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .map((f) => path.join(dir, f))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)
    .map((file) => {
      const bytes = readFileSync(file, 'latin1')
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
      return Buffer.from(bytes, 'latin1').toString('utf8');
    })
    .filter((text) => text.toLowerCase().includes(to.toLowerCase()));
}

/** A WhatsApp message as the offline provider writes it (apps/api/src/providers/whatsapp/outbox.provider.ts). */
export interface OutboxWhatsApp {
  to: string;
  template: string;
  parameters: string[];
  text: string;
}

/**
 * The WhatsApp messages the server wrote to its outbox (JSON files under the test data folder) for the
 * number `to` (55 + DDD + number, digits), oldest first. Sent by background jobs: poll it.
 */
export function outboxWhatsApp(to: string): OutboxWhatsApp[] {
  const dir = path.join(process.env.E2E_DATA_DIR ?? '', 'outbox', 'whatsapp');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as OutboxWhatsApp)
    .filter((m) => m.to === to);
}

/** Reais as the page writes them ("R$ 1.234,56"), tolerant of the no-break space Intl puts after R$. */
export function brl(cents: number): RegExp {
  const [int, dec] = (cents / 100).toFixed(2).split('.');
  const grouped = (int ?? '0').replace(/\B(?=(\d{3})+(?!\d))/g, '\\.');
  return new RegExp(`R\\$\\s${grouped},${dec}`);
}

/** The buyer's CPF of the demo's NF-e, the one the review page asks for carts with products. */
export const CPF_NA_NOTA = '529.982.247-25';

/** On the order review of a cart with products: types the "CPF na nota" the NF-e is issued to. */
export async function fillCpfNaNota(page: Page, cpf = CPF_NA_NOTA): Promise<void> {
  await page.getByRole('textbox', { name: 'CPF na nota' }).fill(cpf);
}

/**
 * On the order review of a cart with products, with the total ready: types the CPF na nota, pays by Pix at the simulated bank, sees the success
 * dialog and lands on the order history (spec §4: after 10 s).
 */
export async function payReviewWithPix(page: Page): Promise<void> {
  await fillCpfNaNota(page);
  await page.getByRole('radio', { name: 'Pix' }).check();
  await expect(page.getByRole('img', { name: 'QR Code Pix' })).toBeVisible();
  await page.getByRole('button', { name: 'Simular pagamento' }).click();
  await expect(page.getByRole('dialog', { name: 'Pedido realizado com sucesso!' })).toBeVisible({
    timeout: 20_000,
  });
  await expect(page).toHaveURL(/\/user\/pedidos$/, { timeout: 15_000 });
}

/** axe over the page (or the part `include` selects): no serious or critical violation. */
export async function expectNoSeriousAxe(page: Page, include?: string) {
  const builder = new AxeBuilder({ page });
  const axe = await (include ? builder.include(include) : builder).analyze();
  expect(
    axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id),
  ).toEqual([]);
}

/** A runner's own data on a form (name and e-mail aside): CPF, birth, address, phone and the race fields. */
export async function fillMember(page: Page, birth: string) {
  await page.getByLabel('CPF', { exact: true }).fill(freshCpf());
  await page.getByLabel('Data de nascimento').fill(birth);
  await page.getByLabel('Masculino').check();
  await page.getByLabel('Endereço (rua e número)').fill('Rua dos Tabajaras, 200');
  await page.getByLabel('Bairro').fill('Praia de Iracema');
  await page.getByLabel('Cidade').fill('Fortaleza');
  await page.getByLabel('Estado').selectOption('CE');
  await page.getByLabel('CEP').fill('60060-510');
  await page.getByLabel('Telefone de contato').fill('(85) 97777-1234');
  await fillRaceFields(page, 'M');
}
