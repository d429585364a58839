import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { makeProduct } from '../test/factories/catalog.ts';
import { makeEvent } from '../test/factories/events.ts';
import { createStaffAndLogin } from '../test/factories/painel.ts';
import { makeUser } from '../test/factories/payments.ts';
import { participant, registrationPix } from '../test/factories/registrations.ts';
import { createTestApp, type TestApp } from '../test/test-app.ts';
import { makeDist } from '../test/web-dist.ts';
import { hasServerRenderer } from './web-shell.ts';

/**
 * What `read` answers once a write has reached the kept pages: at once on the embedded database, and
 * on PostgreSQL by LISTEN/NOTIFY, a moment after the write's commit (in every process alike).
 */
const changed = <T>(read: () => Promise<T>) => vi.waitFor(read, { timeout: 45_000, interval: 20 });

/** After `npm run build` the catalogue and product pages come rendered by React (apps/web/src/entry-server.tsx). */
const serverRendered = hasServerRenderer();

describe('serving the web app', () => {
  let t: TestApp;
  let dist: string;
  beforeAll(async () => {
    dist = makeDist();
    t = await createTestApp({ env: { WEB_DIST: dist } });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('inlines the theme script and the stylesheet, and allows exactly that script by its hash', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toContain("<script>document.documentElement.classList.add('x');</script>");
    expect(res.body).toContain('<style>body{color:red}</style>');
    expect(res.body).not.toContain('href="/assets/index-abc.css"');
    const hash = createHash('sha256').update("document.documentElement.classList.add('x');").digest('base64');
    expect(res.headers['content-security-policy']).toContain(`'sha256-${hash}'`);
  });

  it("hints the home page's lazily loaded chunks, not the ones the page already names", async () => {
    const home = await t.app.inject({ method: 'GET', url: '/' });
    expect(home.body).toContain('<link rel="modulepreload" crossorigin href="/assets/home-page-3.js">');
    expect(home.body).toContain('<link rel="modulepreload" crossorigin href="/assets/card-2.js">');
    const other = await t.app.inject({ method: 'GET', url: '/sobrenos' });
    expect(other.body).not.toContain('home-page-3');
  });

  it('starts the app once the page is painted: its code hints wait, inert, and the entry is imported after', async () => {
    const { body, headers } = await t.app.inject({ method: 'GET', url: '/sobrenos' });
    // No script element loads the entry: an inline module, allowed by its hash, imports it.
    expect(body).not.toContain('src="/assets/index-abc.js"');
    const loader = /<script type="module">([\s\S]*?)<\/script>/.exec(body)?.[1] ?? '';
    expect(loader).toContain("import('/assets/index-abc.js')");
    const hash = createHash('sha256').update(loader).digest('base64');
    expect(headers['content-security-policy']).toContain(`'sha256-${hash}'`);
    // The chunks are hinted inside a template (fetched when the loader moves them into the head).
    const hints = /<template id="code-hints">([\s\S]*?)<\/template>/.exec(body)?.[1] ?? '';
    expect(hints).toContain('<link rel="modulepreload" crossorigin href="/assets/index-abc.js">');
    expect(hints).toContain('<link rel="modulepreload" crossorigin href="/assets/react-1.js">');
    // Hints come before the inlined stylesheet, in the first bytes the browser reads.
    expect(body.indexOf('<template id="code-hints">')).toBeLessThan(body.indexOf('<style>'));
  });

  it("hints the entry's own chunks on every page, once (the build has no preload helper)", async () => {
    for (const url of ['/', '/sobrenos']) {
      const { body } = await t.app.inject({ method: 'GET', url });
      expect(
        body.split('<link rel="modulepreload" crossorigin href="/assets/react-1.js">'),
        url,
      ).toHaveLength(2);
    }
  });

  it('puts the banner in the static markup of the home page only', async () => {
    const home = await t.app.inject({ method: 'GET', url: '/' });
    // The server-rendered home page has the banner itself (its video's poster); the shell a placeholder image.
    expect(home.body).toContain(
      serverRendered ? 'poster="/media/banner-poster.svg"' : 'src="/media/banner-poster.svg"',
    );
    const made = await makeProduct(t.database.db);
    const product = await t.app.inject({ method: 'GET', url: `/produto/${made.id}` });
    expect(product.statusCode).toBe(200);
    expect(product.body).not.toContain('banner-poster');
    expect(product.body).not.toContain('<!--home-banner-->');
  });

  it("hints a product page's data and main image so the phone fetches them early", async () => {
    const product = await makeProduct(t.database.db);
    const res = await t.app.inject({ method: 'GET', url: `/produto/${product.id}` });
    // A server-rendered page carries the product's data: only the shell has it fetched early.
    const dataHint = `<link rel="preload" as="fetch" href="/api/products/${product.id}/" crossorigin>`;
    if (serverRendered) {
      expect(res.body).not.toContain(dataHint);
      expect(res.body).toContain('<script type="application/json" id="server-data">');
      expect(res.body).toContain(`>${product.name}</h1>`);
    } else {
      expect(res.body).toContain(dataHint);
    }
    expect(res.body).toMatch(/<link rel="preload" as="image" href="\/api\/media\/products\/[^"]+\.svg"/);
    const unknown = await t.app.inject({ method: 'GET', url: '/produto/999999' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).not.toContain('<link rel="preload"');
  });

  it('serves hashed assets with a year-long cache and unknown files as JSON 404', async () => {
    const asset = await t.app.inject({ method: 'GET', url: '/assets/index-abc.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const missing = await t.app.inject({ method: 'GET', url: '/nada.png' });
    expect(missing.statusCode).toBe(404);
    const api = await t.app.inject({ method: 'GET', url: '/api/nada/' });
    expect(api.json()).toMatchObject({ code: 'not_found' });
  });

  it('sends a page compressed, answers 304 to its ETag, and keeps it until a product is edited in the back office', async () => {
    const product = await makeProduct(t.database.db, { name: 'Regata Brisa do Mar', priceCents: 8990 });
    const url = `/produto/${product.id}`;
    const page = async (headers: Record<string, string> = {}) => {
      const res = await t.app.inject({
        method: 'GET',
        url,
        headers: { 'accept-encoding': 'br', ...headers },
      });
      return { res, html: res.statusCode === 200 ? brotliDecompressSync(res.rawPayload).toString() : '' };
    };
    // Kept: asked again with its ETag, the page answers 304 (once the set-up's own writes have reached
    // the kept pages; on PostgreSQL they arrive by notification).
    const first = await changed(async () => {
      const answer = await page();
      expect((await page({ 'if-none-match': answer.res.headers.etag as string })).res.statusCode).toBe(304);
      return answer;
    });
    expect(first.res.headers['content-encoding']).toBe('br');
    expect(first.res.headers['content-type']).toMatch(/^text\/html/);
    expect(first.html).toMatch(/R\$\s89,90/);
    const etag = first.res.headers.etag as string;

    const admin = await createStaffAndLogin(t.app, 'admin');
    const painelUrl = `/api/painel/products/${product.id}/`;
    const { versao } = (await t.app.inject({ method: 'GET', url: painelUrl, headers: admin.headers })).json();
    const edit = await t.app.inject({
      method: 'PATCH',
      url: painelUrl,
      headers: admin.headers,
      payload: { versao, price: 79.9 },
    });
    expect(edit.statusCode).toBe(200);
    const after = await changed(async () => {
      const answer = await page({ 'if-none-match': etag });
      expect(answer.res.statusCode).toBe(200);
      return answer;
    });
    expect(after.html).toMatch(/R\$\s79,90/);
    expect(after.html).not.toMatch(/R\$\s89,90/);
  });

  it("draws an event's page again once its last place is taken", async () => {
    const event = await makeEvent(t.database.db, {
      days: [[{ name: '5 km', priceCents: 5000, placesLeft: 1 }]],
    });
    const url = `/eventos/register/${event.id}`;
    const before = await t.app.inject({ method: 'GET', url });
    expect(before.statusCode).toBe(200);
    expect(before.body).toContain('https://schema.org/InStock');
    const buyer = await makeUser(t.app);
    const pix = await registrationPix(
      t.app,
      participant(event, [event.days[0]!.categories[0]!.id]),
      50,
      buyer.headers,
    );
    expect(pix.statusCode).toBe(201);
    const after = await changed(async () => {
      const answer = await t.app.inject({
        method: 'GET',
        url,
        headers: { 'if-none-match': before.headers.etag as string },
      });
      expect(answer.statusCode).toBe(200);
      return answer;
    });
    expect(after.body).toContain('https://schema.org/SoldOut');
    expect(after.body).not.toContain('https://schema.org/InStock');
  });

  it('answers unknown pages with status 404 and the SPA, so its router shows the 404 page', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/pagina/que/nao/existe' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain('<div id="root">');
    expect(res.body).toContain('<meta name="robots" content="noindex">');
  });
});
