import type { StaffRole } from '@passada/core/contracts/painel';
import type { FastifyInstance } from 'fastify';
import { Secret, TOTP } from 'otpauth';
import sharp from 'sharp';

let seq = 0;

export interface TestStaff {
  id: number;
  email: string;
  password: string;
  token: string;
  headers: { authorization: string };
}

/** A staff member created through the painel's service and signed in over HTTP. */
export async function createStaffAndLogin(
  app: FastifyInstance,
  role: StaffRole = 'admin',
  options: { eventos?: number[] } = {},
): Promise<TestStaff> {
  seq += 1;
  const email = `equipe${seq}_${process.pid}@passada.com.br`;
  const password = `painel-seguro-${seq}-${process.pid}`;
  const row = await app.staff.createStaff({ email, name: `Equipe ${seq}`, role, password, ...options });
  const res = await app.inject({
    method: 'POST',
    url: '/api/painel/auth/login/',
    payload: { email, password },
  });
  if (res.statusCode !== 200) throw new Error(`login da equipe falhou: ${res.body}`);
  const token = res.json().token as string;
  return { id: row.id, email, password, token, headers: { authorization: `Token ${token}` } };
}

/** The code an authenticator app would show for `secret` at `when`. */
export function totpCode(secret: string, when: Date): string {
  return TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: when.getTime() });
}

/**
 * Turns two-step sign-in on for a signed-in staff member over HTTP (setup, then a code from the
 * app at `when`); returns the authenticator secret.
 */
export async function turnOnTotp(
  app: FastifyInstance,
  headers: TestStaff['headers'],
  when: Date,
): Promise<string> {
  const setup = await app.inject({ method: 'POST', url: '/api/painel/auth/2fa/setup/', headers });
  if (setup.statusCode !== 200) throw new Error(`2FA setup falhou: ${setup.body}`);
  const secret = setup.json().secret as string;
  const on = await app.inject({
    method: 'POST',
    url: '/api/painel/auth/2fa/enable/',
    headers,
    payload: { codigo: totpCode(secret, when) },
  });
  if (on.statusCode !== 200) throw new Error(`ativar 2FA falhou: ${on.body}`);
  return secret;
}

/** A real picture in the given format, as a phone or a computer would send it. */
export function picture(format: 'jpeg' | 'png' | 'webp', width = 1600) {
  return sharp({ create: { width, height: Math.round(width * 1.2), channels: 3, background: '#ff6b57' } })
    .toFormat(format)
    .toBuffer();
}

/**
 * A real PNG of 16000 × 16000 white pixels, a decompression bomb: about 760 KB on disk, 768 MB of pixels
 * once decoded. Takes a few seconds to make.
 */
export function decompressionBomb(): Promise<Buffer> {
  return sharp({ create: { width: 16000, height: 16000, channels: 3, background: '#ffffff' } })
    .png({ compressionLevel: 9 })
    .toBuffer();
}

/** A multipart body with one file field "foto", built by hand so the test sends exactly these bytes. */
export function multipartPhoto(bytes: Buffer, filename: string, type: string) {
  const boundary = `----passada${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="foto"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
  );
  return {
    payload: Buffer.concat([head, bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** Sends a special price's proof (`POST /api/comprovantes/`, docs/decisions/0068) as the account `who`. */
export function uploadProof(
  app: FastifyInstance,
  who: { headers: Record<string, string> },
  bytes: Buffer,
  filename: string,
  type: string,
) {
  const body = multipartPhoto(bytes, filename, type);
  return app.inject({
    method: 'POST',
    url: '/api/comprovantes/',
    headers: { ...who.headers, ...body.headers },
    payload: body.payload,
  });
}

/** Uploads a product photo through the painel API as `who`. */
export function uploadProductPhoto(
  app: FastifyInstance,
  who: TestStaff,
  productId: number,
  photo: { bytes: Buffer; filename: string; type: string },
) {
  const body = multipartPhoto(photo.bytes, photo.filename, photo.type);
  return app.inject({
    method: 'POST',
    url: `/api/painel/products/${productId}/images/`,
    headers: { ...who.headers, ...body.headers },
    payload: body.payload,
  });
}

/**
 * Polls the back office until no photo of the product is still `processando` (the queue makes the
 * resized files a moment after the upload answers) and answers its images.
 */
export async function settledImages(
  app: FastifyInstance,
  who: TestStaff,
  productId: number,
  timeoutMs = 60_000,
): Promise<Array<{ id: number; url: string; status: string; srcset_webp: string; srcset_avif: string }>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await app.inject({
      method: 'GET',
      url: `/api/painel/products/${productId}/`,
      headers: who.headers,
    });
    const images = res.json().images as Array<{ status: string }>;
    if (!images.some((i) => i.status === 'processando')) return res.json().images;
    if (Date.now() > deadline) throw new Error(`fotos ainda processando após ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Polls an uploaded photo's state until it leaves `processando`. */
export async function settledPhoto(
  app: FastifyInstance,
  who: TestStaff,
  photoId: number,
  timeoutMs = 60_000,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await app.inject({
      method: 'GET',
      url: `/api/painel/photos/${photoId}/`,
      headers: who.headers,
    });
    const photo = res.json() as { id: number; url: string; status: string };
    if (photo.status !== 'processando') return photo;
    if (Date.now() > deadline) throw new Error(`foto ainda processando após ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Waits until `check` holds (the queue's last step, removing an original, follows the photo's `pronta`). */
export async function until(check: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`condição não atingida em ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
