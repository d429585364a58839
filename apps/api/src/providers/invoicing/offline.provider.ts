import { createHash } from 'node:crypto';
import { isValidCnpj, isValidCpf } from '@passada/core/documents';
import { buildAccessKey, isValidAccessKey } from './access-key.ts';
import { nfeEventXml, nfePdf, nfeXml, nfsePdf, nfseXml } from './documents.ts';
import type {
  CancelAnswer,
  FiscalAnswer,
  InvoicingProvider,
  NfeEventAnswer,
  NfeInput,
  NfseInput,
} from './invoicing.provider.ts';

/** A number of `size` digits derived from `ref` (the key's cNF, protocols, verification codes). */
function digitsFrom(ref: string, salt: string, size: number): string {
  const hash = createHash('sha256').update(`${salt}:${ref}`).digest();
  return (hash.readBigUInt64BE(0) % 10n ** BigInt(size)).toString().padStart(size, '0');
}

/**
 * The demo's invoicing (INVOICING_PROVIDER=offline): authorises at once, with a real-format access key
 * and a DANFE-like PDF and XML marked "SEM VALOR FISCAL". Everything is derived from the input and its
 * reference (the number and moment the shop fixed before asking), so issuing a reference again, after
 * a restart that emptied its memory, answers the same nota: never a second one. It refuses what SEFAZ
 * would refuse first: a recipient CPF that is not valid (rejection 237).
 */
export function createOfflineInvoicingProvider(): InvoicingProvider {
  const issued = new Map<string, FiscalAnswer>();
  const events = new Map<string, NfeEventAnswer>();
  const cancelled = new Set<string>();

  const answerOf = (ref: string) => {
    if (cancelled.has(ref)) return { state: 'cancelada' } as const;
    return issued.get(ref) ?? null;
  };

  return {
    name: 'offline',
    async consultNfe(ref) {
      return answerOf(ref);
    },
    async issueNfe(input: NfeInput) {
      const known = answerOf(input.ref);
      if (known && known.state !== 'rejeitada') return known;
      if (!isValidCpf(input.recipient.cpf)) {
        const answer = {
          state: 'rejeitada',
          code: '237',
          message: 'Rejeição: CPF do destinatário inválido',
        } as const;
        issued.set(input.ref, answer);
        return answer;
      }
      const key = buildAccessKey({
        uf: input.emitter.address.uf,
        issuedAt: input.issuedAt,
        cnpj: input.emitter.cnpj,
        series: input.series,
        number: input.number,
        code: Number(digitsFrom(input.ref, 'cNF', 8)),
      });
      const protocol = `9${key.slice(0, 2)}${digitsFrom(input.ref, 'protocolo', 12)}`;
      const answer: FiscalAnswer = {
        state: 'autorizada',
        accessKey: key,
        number: String(input.number),
        series: String(input.series),
        protocol,
        pdf: { bytes: await nfePdf(input, key, protocol) },
        xml: { bytes: Buffer.from(nfeXml(input, key, protocol), 'utf8') },
      };
      issued.set(input.ref, answer);
      return answer;
    },
    async cancelNfe(ref) {
      cancelled.add(ref);
      return { state: 'cancelada', xml: null } satisfies CancelAnswer;
    },
    async consultNfse(ref) {
      return answerOf(ref);
    },
    async issueNfse(input: NfseInput) {
      const known = answerOf(input.ref);
      if (known && known.state !== 'rejeitada') return known;
      if (
        input.taker?.cnpj !== undefined
          ? !isValidCnpj(input.taker.cnpj)
          : input.taker && !isValidCpf(input.taker.cpf)
      ) {
        const answer = {
          state: 'rejeitada',
          code: 'E73',
          message: `${input.taker?.cnpj !== undefined ? 'CNPJ' : 'CPF'} do tomador inválido`,
        } as const;
        issued.set(input.ref, answer);
        return answer;
      }
      const number = String(input.number);
      const verification = digitsFrom(input.ref, 'verificacao', 9);
      const answer: FiscalAnswer = {
        state: 'autorizada',
        accessKey: null,
        number,
        series: null,
        protocol: null,
        verificationCode: verification,
        pdf: { bytes: await nfsePdf(input, number, verification) },
        xml: { bytes: Buffer.from(nfseXml(input, number, verification), 'utf8') },
      };
      issued.set(input.ref, answer);
      return answer;
    },
    async cancelNfse(ref) {
      cancelled.add(ref);
      return { state: 'cancelada', xml: null };
    },
    async consultNfeEvent(ref) {
      return events.get(ref) ?? null;
    },
    async registerNfeEvent(input) {
      const known = events.get(input.ref);
      if (known?.state === 'registrado') return known;
      // What SEFAZ checks first: the NF-e's key and its check digit, and 1 to 990 items (gPerecimento).
      const refused = !isValidAccessKey(input.accessKey)
        ? { code: '236', message: 'Rejeição: Chave de Acesso com dígito verificador inválido' }
        : input.items.length === 0 || input.items.length > 990
          ? { code: '225', message: 'Rejeição: Falha no Schema XML do evento' }
          : null;
      if (refused) return { state: 'rejeitada', ...refused };
      const protocol = `9${input.accessKey.slice(0, 2)}${digitsFrom(input.ref, 'protocolo', 12)}`;
      const answer: NfeEventAnswer = {
        state: 'registrado',
        protocol,
        xml: { bytes: Buffer.from(nfeEventXml(input, protocol), 'utf8') },
      };
      events.set(input.ref, answer);
      return answer;
    },
    async download() {
      throw new Error('O emissor de demonstração entrega os arquivos junto com a nota.');
    },
  };
}
