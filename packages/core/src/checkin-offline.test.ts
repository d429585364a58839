import { beforeAll, describe, expect, it } from 'vitest';
import {
  decideOfflineScan,
  decideOfflineTicket,
  indexSnapshot,
  OFFLINE_MESSAGES,
  searchSnapshot,
  ticketHash,
} from './checkin-offline.ts';
import type { DeskTicket } from './contracts/painel-checkin-desk.ts';

const SECRET = 'um-segredo-de-teste-com-mais-de-32-caracteres';
const base64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
/** A ticket signed as the server signs it (HMAC-SHA256 cut to 128 bits, docs/decisions/0026). */
async function code(id: number, event: number, nonce: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(SECRET),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const mac = new Uint8Array(
    await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`${id}.${event}.${nonce}`)),
  );
  return `PASSADA-KIT:${id}.${event}.${nonce}.${base64url(mac.subarray(0, 16))}`;
}
const nonceOf = (id: number) => `nonce${id}`.padEnd(32, '0');
const hashes = new Map<number, string>();

function ticket(id: number, extra: Partial<DeskTicket> = {}): DeskTicket {
  return {
    id,
    nome: `Pessoa ${id}`,
    cpf: '***.447.888-**',
    categorias: [{ nome: '5 km', numero_peito: 500 + id }],
    tamanho_camisa: 'M',
    equipe: null,
    confira_documento: false,
    cancelada: false,
    transferida: false,
    codigo_hash: hashes.get(id) ?? '',
    retirada: null,
    ...extra,
  };
}

beforeAll(async () => {
  for (const id of [1, 2, 30]) hashes.set(id, await ticketHash(await code(id, 7, nonceOf(id))));
});

describe('the kit desk deciding offline (docs/decisions/0063)', () => {
  it('hashes a code to 128 bits of base64url (the API test checks it against the server)', async () => {
    const text = await code(12, 7, 'a'.repeat(32));
    expect(await ticketHash(text)).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(await ticketHash(text)).not.toBe(await ticketHash(`${text.slice(0, -1)}x`));
  });

  it('takes the current code, and refuses a forged one, another event, an old model and a stranger', async () => {
    const index = indexSnapshot({ inscricoes: [ticket(1), ticket(2, { transferida: true })] });
    const real = await code(1, 7, nonceOf(1));
    expect(await decideOfflineScan(7, index, ` ${real} `)).toMatchObject({
      kind: 'pode_retirar',
      ticket: { id: 1 },
    });
    // Signed with the right secret but not the nonce the snapshot knows (a voided code).
    const voided = await code(1, 7, 'b'.repeat(32));
    expect(await decideOfflineScan(7, index, voided)).toEqual({
      kind: 'recusado',
      message: OFFLINE_MESSAGES.forged,
    });
    const old = await code(2, 7, 'c'.repeat(32));
    expect(await decideOfflineScan(7, index, old)).toEqual({
      kind: 'recusado',
      message: OFFLINE_MESSAGES.transferred,
    });
    expect(await decideOfflineScan(8, index, real)).toEqual({
      kind: 'recusado',
      message: OFFLINE_MESSAGES.otherEvent,
    });
    expect(await decideOfflineScan(7, index, await code(99, 7, 'd'.repeat(32)))).toMatchObject({
      kind: 'recusado',
    });
    expect(await decideOfflineScan(7, index, 'PASSADA-INSCRICAO:1')).toEqual({
      kind: 'recusado',
      message: OFFLINE_MESSAGES.legacy,
    });
    expect(await decideOfflineScan(7, index, 'https://example.com')).toEqual({
      kind: 'recusado',
      message: OFFLINE_MESSAGES.foreign,
    });
  });

  it("counts this desk's pickups waiting to be sent, and a cancellation, before the snapshot's state", () => {
    const pending = new Map([[1, { em: '2026-11-28T08:00:00.000Z', por: 'esta mesa', mesa: null }]]);
    expect(decideOfflineTicket(ticket(1), pending)).toMatchObject({
      kind: 'retirado',
      retirada: { por: 'esta mesa' },
    });
    expect(decideOfflineTicket(ticket(1, { cancelada: true }), pending)).toMatchObject({ kind: 'cancelada' });
    expect(decideOfflineTicket(ticket(2), pending)).toMatchObject({ kind: 'pode_retirar' });
  });

  it('searches the copy by name without accents, visible CPF digits, number or bib', () => {
    const index = indexSnapshot({
      inscricoes: [ticket(1, { nome: 'Conceição Araújo' }), ticket(2, { cpf: '***.123.456-**' }), ticket(30)],
    });
    const ids = (q: string) => searchSnapshot(index, q).map((t) => t.id);
    expect(ids('conceicao')).toEqual([1]);
    expect(ids('123.456')).toEqual([2]);
    expect(ids('30')).toEqual([30]);
    expect(ids('502')).toEqual([2]);
    expect(ids('x')).toEqual([]);
  });
});
