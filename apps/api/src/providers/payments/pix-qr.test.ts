import { buildPixPayload } from '@passada/core/pix-br-code';
import QRCode from 'qrcode';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { pixQrDataUri } from './pix-qr.ts';

/** The grey value of every pixel of a PNG data URI, decoded by libvips. */
async function pixels(dataUri: string) {
  expect(dataUri).toMatch(/^data:image\/png;base64,/);
  const png = Buffer.from(dataUri.slice(dataUri.indexOf(',') + 1), 'base64');
  const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, bytes: png.length };
}

describe('Pix QR code image', () => {
  const payloads = [
    // A short code, and a full simulated charge's BR Code (a larger QR version).
    'pix',
    buildPixPayload({
      url: 'pix.simulado.passada.invalid/v2/cob/0123456789abcdef0123456789abcdef',
      amountCents: 18_990,
      merchantName: 'Passada',
      merchantCity: 'FORTALEZA',
    }),
  ];

  it.each(payloads)(
    'draws the same pixels as the qrcode library with its one mask, in a smaller PNG (%#)',
    async (payload) => {
      const ours = await pixels(pixQrDataUri(payload));
      const library = await pixels(
        await QRCode.toDataURL(payload, {
          type: 'image/png',
          errorCorrectionLevel: 'M',
          margin: 2,
          width: 320,
          maskPattern: 0,
        }),
      );
      expect([ours.width, ours.height]).toEqual([320, 320]);
      expect(Buffer.compare(ours.data, library.data)).toBe(0);
      expect(ours.bytes).toBeLessThan(library.bytes);
    },
  );

  it('draws black modules on white', async () => {
    const { data } = await pixels(pixQrDataUri('pix'));
    const values = new Set(data);
    expect([...values].sort((a, b) => a - b)).toEqual([0, 255]);
    // "pix" is a version 1 code: 21 modules and 2 of quiet zone, 12.8 px each. The quiet zone is
    // white; the top-left finder pattern starts just inside it.
    expect(data[25 * 320 + 25]).toBe(255);
    expect(data[26 * 320 + 26]).toBe(0);
  });
});
