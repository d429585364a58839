/**
 * Pix BR Code ("copia e cola") per the BCB manual (docs/brazil.md, "Pix BR Code"): EMV fields
 * `ID LL VALUE`, ending in a CRC-16/CCITT-FALSE over the whole payload including `6304`.
 */
import { stripAccents } from './text.ts';

export const PIX_GUI = 'br.gov.bcb.pix';
/** API Pix txid of an immediate charge (`PUT /v2/cob/{txid}`). */
export const PIX_TXID_REGEX = /^[a-zA-Z0-9]{26,35}$/;

/** CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF, no reflection, no final xor; 4 upper-case hex digits. */
export function crc16(payload: string): string {
  let crc = 0xffff;
  for (const byte of new TextEncoder().encode(payload)) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

/** Pix apps reject accents in name and city; the manual restricts them to printable ASCII. */
export function toPixText(value: string): string {
  return stripAccents(value).replace(/[^\x20-\x7e]/g, '');
}

function field(id: string, value: string): string {
  if (value.length > 99) throw new Error(`campo ${id} do BR Code passa de 99 caracteres`);
  return `${id}${String(value.length).padStart(2, '0')}${value}`;
}

export interface PixPayloadInput {
  merchantName: string;
  merchantCity: string;
  /** Pix key (static code); exclusive with `url`. */
  key?: string;
  /** Location of a dynamic charge, without `https://`; exclusive with `key`. */
  url?: string;
  /** Static only: shown to the payer. */
  description?: string;
  amountCents?: number;
  /** Static only: 1–25 alphanumerics; dynamic codes carry `***` (the txid lives behind the URL). */
  txid?: string;
  postalCode?: string;
}

/** Builds a BR Code; dynamic (point of initiation 12) when `url` is given, static (11) otherwise. */
export function buildPixPayload(input: PixPayloadInput): string {
  const dynamic = input.url !== undefined;
  if (dynamic === (input.key !== undefined)) throw new Error('informe a chave Pix ou a URL, não ambas');
  if (input.key !== undefined && (input.key.length < 1 || input.key.length > 77))
    throw new Error('chave Pix deve ter de 1 a 77 caracteres');
  if (
    input.url !== undefined &&
    (input.url.length < 1 || input.url.length > 77 || /^https?:\/\//i.test(input.url))
  )
    throw new Error('URL do BR Code deve ter até 77 caracteres, sem https://');
  const txid = dynamic ? '***' : (input.txid ?? '***');
  if (txid !== '***' && !/^[A-Za-z0-9]{1,25}$/.test(txid)) throw new Error('txid do BR Code inválido');
  const account =
    field('00', PIX_GUI) +
    (dynamic
      ? field('25', input.url!)
      : field('01', input.key!) + (input.description ? field('02', toPixText(input.description)) : ''));
  let amount = '';
  if (input.amountCents !== undefined) {
    if (!Number.isInteger(input.amountCents) || input.amountCents <= 0) throw new Error('valor inválido');
    amount = field('54', (input.amountCents / 100).toFixed(2));
    if (amount.length > 4 + 13) throw new Error('valor passa de 13 caracteres');
  }
  const name = toPixText(input.merchantName).trim().slice(0, 25);
  const city = toPixText(input.merchantCity).trim().slice(0, 15);
  if (!name || !city) throw new Error('nome e cidade do recebedor são obrigatórios');
  const body =
    field('00', '01') +
    (dynamic ? field('01', '12') : '') +
    field('26', account) +
    field('52', '0000') +
    field('53', '986') +
    amount +
    field('58', 'BR') +
    field('59', name) +
    field('60', city) +
    (input.postalCode ? field('61', input.postalCode.replace(/\D/g, '')) : '') +
    field('62', field('05', txid)) +
    '6304';
  return body + crc16(body);
}

export interface ParsedPixPayload {
  dynamic: boolean;
  key?: string;
  url?: string;
  description?: string;
  amountCents?: number;
  merchantName: string;
  merchantCity: string;
  postalCode?: string;
  txid?: string;
  /** Every top-level field by id, as read. */
  fields: Record<string, string>;
}

export class PixPayloadError extends Error {}

function readFields(text: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  let i = 0;
  while (i < text.length) {
    const id = text.slice(i, i + 2);
    const len = Number(text.slice(i + 2, i + 4));
    if (!/^\d{2}$/.test(id) || !/^\d{2}$/.test(text.slice(i + 2, i + 4)) || i + 4 + len > text.length)
      throw new PixPayloadError(`campo malformado na posição ${i}`);
    out.push([id, text.slice(i + 4, i + 4 + len)]);
    i += 4 + len;
  }
  return out;
}

/** Reads a BR Code, checking structure and CRC; throws PixPayloadError when it is not valid. */
export function parsePixPayload(payload: string): ParsedPixPayload {
  const text = payload.trim();
  if (!text.startsWith('000201')) throw new PixPayloadError('BR Code deve começar com 000201');
  const entries = readFields(text);
  const last = entries.at(-1);
  if (last?.[0] !== '63' || last[1].length !== 4 || !text.endsWith(`6304${last[1]}`))
    throw new PixPayloadError('BR Code sem CRC no fim');
  const expected = crc16(text.slice(0, -4));
  if (last[1] !== expected) throw new PixPayloadError(`CRC inválido: ${last[1]}, esperado ${expected}`);
  const fields = Object.fromEntries(entries);
  let account: Record<string, string> | undefined;
  for (const [id, value] of entries) {
    const n = Number(id);
    if (n >= 26 && n <= 51) {
      const sub = Object.fromEntries(readFields(value));
      if (sub['00']?.toLowerCase() === PIX_GUI) account = sub;
    }
  }
  if (!account) throw new PixPayloadError('BR Code sem conta Pix (br.gov.bcb.pix)');
  if ((account['01'] === undefined) === (account['25'] === undefined))
    throw new PixPayloadError('BR Code deve ter chave ou URL, não ambas');
  const merchantName = fields['59'];
  const merchantCity = fields['60'];
  if (
    fields['52'] === undefined ||
    fields['53'] !== '986' ||
    fields['58'] !== 'BR' ||
    !merchantName ||
    !merchantCity
  )
    throw new PixPayloadError('BR Code sem campos obrigatórios');
  if (merchantName.length > 25 || merchantCity.length > 15)
    throw new PixPayloadError('nome ou cidade longos demais');
  let amountCents: number | undefined;
  if (fields['54'] !== undefined) {
    if (!/^\d{1,10}(\.\d{1,2})?$/.test(fields['54'])) throw new PixPayloadError('valor malformado');
    amountCents = Math.round(Number(fields['54']) * 100);
  }
  const extra = fields['62'] !== undefined ? Object.fromEntries(readFields(fields['62'])) : {};
  const txid = extra['05'];
  return {
    dynamic: fields['01'] === '12',
    ...(account['01'] !== undefined ? { key: account['01'] } : {}),
    ...(account['25'] !== undefined ? { url: account['25'] } : {}),
    ...(account['02'] !== undefined ? { description: account['02'] } : {}),
    ...(amountCents !== undefined ? { amountCents } : {}),
    merchantName,
    merchantCity,
    ...(fields['61'] !== undefined ? { postalCode: fields['61'] } : {}),
    ...(txid !== undefined && txid !== '***' ? { txid } : {}),
    fields,
  };
}
