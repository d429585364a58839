import { describe, expect, it } from 'vitest';
import { buildPixPayload, crc16, PixPayloadError, parsePixPayload, toPixText } from './pix-br-code.ts';

const BCB_EXAMPLE =
  '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D';

describe('CRC-16/CCITT-FALSE', () => {
  it('gives the published check value for 123456789', () => {
    expect(crc16('123456789')).toBe('29B1');
  });
  it('matches the CRC of the BCB manual example', () => {
    expect(crc16(BCB_EXAMPLE.slice(0, -4))).toBe('1D3D');
  });
});

describe('parsePixPayload', () => {
  it('reads the BCB manual example', () => {
    const p = parsePixPayload(BCB_EXAMPLE);
    expect(p).toMatchObject({
      dynamic: false,
      key: '123e4567-e12b-12d1-a456-426655440000',
      merchantName: 'Fulano de Tal',
      merchantCity: 'BRASILIA',
    });
    expect(p.txid).toBeUndefined();
    expect(p.amountCents).toBeUndefined();
  });
  it('rejects the same example with the wrong CRC 1D3E', () => {
    expect(() => parsePixPayload(`${BCB_EXAMPLE.slice(0, -4)}1D3E`)).toThrow(PixPayloadError);
  });
  it('rejects a payload whose lengths do not add up', () => {
    expect(() => parsePixPayload(BCB_EXAMPLE.replace('5913Fulano', '5920Fulano'))).toThrow(PixPayloadError);
  });
  it('rejects a payload without the Pix GUI', () => {
    const body = BCB_EXAMPLE.slice(0, -4).replace('br.gov.bcb.pix', 'br.gov.bcb.xyz');
    expect(() => parsePixPayload(body + crc16(body))).toThrow(/conta Pix/);
  });
});

describe('buildPixPayload', () => {
  it('rebuilds the BCB example byte for byte', () => {
    expect(
      buildPixPayload({
        key: '123e4567-e12b-12d1-a456-426655440000',
        merchantName: 'Fulano de Tal',
        merchantCity: 'BRASILIA',
      }),
    ).toBe(BCB_EXAMPLE);
  });
  it('builds a dynamic code with amount, stripped accents and cut name/city, that parses back', () => {
    const payload = buildPixPayload({
      url: 'pix.example.com/qr/v2/cobv/9d36b84fc70b478fb95c12729b90ca25',
      amountCents: 12990,
      merchantName: 'Passada Artigos Esportivos Ltda',
      merchantCity: 'São José de Ribamar',
    });
    const p = parsePixPayload(payload);
    expect(p.dynamic).toBe(true);
    expect(p.fields['01']).toBe('12');
    expect(p.url).toBe('pix.example.com/qr/v2/cobv/9d36b84fc70b478fb95c12729b90ca25');
    expect(p.amountCents).toBe(12990);
    expect(p.fields['54']).toBe('129.90');
    expect(p.merchantName).toBe('Passada Artigos Esportivo');
    expect(p.merchantName.length).toBeLessThanOrEqual(25);
    expect(p.merchantCity).toBe('Sao Jose de Rib');
    expect(payload).toMatch(/6304[0-9A-F]{4}$/);
  });
  it('refuses a key and a URL together, a long key and a bad txid', () => {
    expect(() => buildPixPayload({ key: 'a', url: 'b', merchantName: 'X', merchantCity: 'Y' })).toThrow();
    expect(() => buildPixPayload({ key: 'k'.repeat(78), merchantName: 'X', merchantCity: 'Y' })).toThrow();
    expect(() =>
      buildPixPayload({ key: 'k', txid: 'tem espaço', merchantName: 'X', merchantCity: 'Y' }),
    ).toThrow();
  });
  it('strips accents', () => {
    expect(toPixText('Fortaleza — Ceará, Maracanaú')).toBe('Fortaleza  Ceara, Maracanau');
  });
});
