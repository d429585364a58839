import { readdirSync } from 'node:fs';
import path from 'node:path';
import { AuditPageSchema, MailLogoSchema, MessagePreviewListSchema } from '@passada/core/contracts/painel';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaffAndLogin, multipartPhoto, type TestStaff } from '../../test/factories/painel.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

/**
 * The e-mails' logo staff send (decision 0045, later): any photo becomes a 128 px PNG square, served
 * at the address every e-mail's header shows; until then, and after "voltar ao padrão", that address
 * leads to the storefront's default mark.
 */
describe('painel: the logo in the e-mails', () => {
  let t: TestApp;
  let admin: TestStaff;
  let stock: TestStaff;
  const LOGO = '/api/media/marca/logo-email.png';

  const send = async (who: TestStaff, bytes: Buffer, filename = 'logo.jpg', type = 'image/jpeg') => {
    const body = multipartPhoto(bytes, filename, type);
    return t.app.inject({
      method: 'PUT',
      url: '/api/painel/mensagens/logo/',
      headers: { ...who.headers, ...body.headers },
      payload: body.payload,
    });
  };
  const banner = (background: string) =>
    sharp({ create: { width: 800, height: 400, channels: 3, background } })
      .jpeg()
      .toBuffer();
  const stored = () => {
    try {
      return readdirSync(path.join(t.dataDir, 'media', 'marca'));
    } catch {
      return [];
    }
  };
  /** The logo as a mail program fetches it: its size, whether it has transparency, two of its pixels. */
  const fetched = async () => {
    const res = await t.app.inject({ method: 'GET', url: LOGO });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    const { data, info } = await sharp(res.rawPayload).raw().toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number) => [
      ...data.subarray((y * info.width + x) * 4, (y * info.width + x) * 4 + 4),
    ];
    return { width: info.width, height: info.height, corner: pixel(0, 0), centre: pixel(64, 64) };
  };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createStaffAndLogin(t.app, 'admin');
    stock = await createStaffAndLogin(t.app, 'estoque');
  });
  afterAll(() => t.close());

  it('leads to the default mark until staff send a logo', async () => {
    const res = await t.app.inject({ method: 'GET', url: LOGO });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/email-logo.png');
    const read = await t.app.inject({
      method: 'GET',
      url: '/api/painel/mensagens/logo/',
      headers: admin.headers,
    });
    expect(MailLogoSchema.parse(read.json())).toEqual({
      personalizado: false,
      url: `${t.app.env.publicUrl}${LOGO}`,
    });
    // Every e-mail's header shows that address.
    const previews = MessagePreviewListSchema.parse(
      (await t.app.inject({ method: 'GET', url: '/api/painel/mensagens/', headers: admin.headers })).json(),
    );
    const htmls = previews.flatMap((p) => p.mensagens.map((m) => m.html));
    expect(htmls.length).toBeGreaterThan(10);
    expect(
      htmls.every((h) => h.includes(`<img src="${t.app.env.publicUrl}${LOGO}" width="32" height="32"`)),
    ).toBe(true);
  });

  it('turns a photo into a transparent 128 px square, replaces it, and goes back to the default', async () => {
    const first = await send(admin, await banner('#c2410c'));
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ personalizado: true });
    const logo = await fetched();
    expect([logo.width, logo.height]).toEqual([128, 128]);
    // A 2:1 picture fitted in the square: bands above and below are transparent, the middle is the photo.
    expect(logo.corner[3]).toBe(0);
    expect(logo.centre[3]).toBe(255);
    expect(Math.abs(logo.centre[0]! - 0xc2)).toBeLessThan(12);
    expect(stored()).toHaveLength(1);

    const png = await sharp({ create: { width: 300, height: 300, channels: 4, background: '#1b2a4a' } })
      .png()
      .toBuffer();
    expect((await send(admin, png, 'novo.png', 'image/png')).statusCode).toBe(200);
    const replaced = await fetched();
    expect(Math.abs(replaced.corner[2]! - 0x4a)).toBeLessThan(12);
    // The old file is gone: one logo in the storage.
    expect(stored()).toHaveLength(1);

    const back = await t.app.inject({
      method: 'DELETE',
      url: '/api/painel/mensagens/logo/',
      headers: admin.headers,
    });
    expect(back.json()).toMatchObject({ personalizado: false });
    expect((await t.app.inject({ method: 'GET', url: LOGO })).statusCode).toBe(302);
    expect(stored()).toHaveLength(0);
    const audit = AuditPageSchema.parse(
      (await t.app.inject({ method: 'GET', url: '/api/painel/audit/', headers: admin.headers })).json(),
    ).results.filter((e) => e.entity === 'logo_email');
    expect(audit.map((e) => e.action)).toEqual([
      'logo_email_padrao',
      'logo_email_alterado',
      'logo_email_alterado',
    ]);
  });

  it('refuses what is not a picture, and staff without the team permission', async () => {
    const text = await send(admin, Buffer.from('não sou uma imagem'), 'logo.png', 'image/png');
    expect(text.statusCode).toBe(415);
    expect(text.json().detail).toBe('Envie uma foto JPEG, PNG, WebP ou HEIC.');
    expect((await send(stock, await banner('#000000'))).statusCode).toBe(403);
    expect(stored()).toHaveLength(0);
    expect((await t.app.inject({ method: 'GET', url: LOGO })).statusCode).toBe(302);
  });
});
