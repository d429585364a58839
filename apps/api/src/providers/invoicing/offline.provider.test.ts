import { describe, expect, it } from 'vitest';
import { isValidAccessKey } from './access-key.ts';
import type { NfeInput } from './invoicing.provider.ts';
import { createOfflineInvoicingProvider } from './offline.provider.ts';

const address = {
  street: 'Av. Beira Mar',
  number: '3000',
  district: 'Meireles',
  city: 'Fortaleza',
  cityCode: '2304400',
  uf: 'CE',
  cep: '60165121',
};
const input: NfeInput = {
  ref: 'passada-pedido-9-nfe',
  purpose: 1,
  operation: 'Venda de mercadoria',
  issuedAt: new Date('2026-11-25T15:00:00Z'),
  number: 31,
  series: 1,
  emitter: {
    cnpj: '12ABC34501DE35',
    ie: '061234567',
    im: '1',
    name: 'Passada',
    regime: 'simples_nacional',
    address,
  },
  recipient: { name: 'Maria Silva', cpf: '40364478829', email: null, address },
  items: [
    {
      code: '1',
      description: 'Camiseta Dry',
      ncm: '61091000',
      origin: 0,
      cfop: '5102',
      icmsSituation: '102',
      pisSituation: '49',
      cofinsSituation: '49',
      quantity: 2,
      unitCents: 7990,
      totalCents: 15980,
      shippingCents: 0,
      discountCents: 0,
      ibsCbs: null,
    },
  ],
  shippingCents: 1500,
  discountCents: 0,
  totalCents: 17480,
  ibsCbsTotals: null,
};

describe('offline invoicing (the demo issuer)', () => {
  it('authorises with a real-format key carrying the state, month, CNPJ, series and number', async () => {
    const answer = await createOfflineInvoicingProvider().issueNfe(input);
    if (answer.state !== 'autorizada') throw new Error(answer.state);
    const key = answer.accessKey!;
    expect(isValidAccessKey(key)).toBe(true);
    expect(key.slice(0, 20)).toBe('23261112ABC34501DE35');
    expect(key.slice(20, 34)).toBe('55001000000031');
    const pdf = (answer.pdf as { bytes: Buffer }).bytes;
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    // The DANFE (drawn with pdfkit) says what it is in its properties too: no fiscal value, and its key.
    expect(pdf.includes(Buffer.from('(SEM VALOR FISCAL)'))).toBe(true);
    expect(pdf.includes(Buffer.from(`(${key})`))).toBe(true);
    const xml = (answer.xml as { bytes: Buffer }).bytes.toString();
    expect(xml).toContain(`Id="NFe${key}"`);
    expect(xml).toContain('<vNF>174.80</vNF>');
    expect(xml).toContain('SEM VALOR FISCAL');
  });

  it('answers the same nota for the same reference, even from a new process', async () => {
    const first = await createOfflineInvoicingProvider().issueNfe(input);
    const restarted = createOfflineInvoicingProvider();
    expect(await restarted.consultNfe(input.ref)).toBeNull();
    const again = await restarted.issueNfe(input);
    expect(again).toMatchObject({
      state: 'autorizada',
      accessKey: (first as { accessKey: string }).accessKey,
    });
  });

  it('rejects an invalid recipient CPF as SEFAZ does (237)', async () => {
    const answer = await createOfflineInvoicingProvider().issueNfe({
      ...input,
      ref: 'passada-pedido-10-nfe',
      recipient: { ...input.recipient, cpf: '11111111111' },
    });
    expect(answer).toEqual({
      state: 'rejeitada',
      code: '237',
      message: 'Rejeição: CPF do destinatário inválido',
    });
  });

  it('registers event 112130 on an NF-e once, and refuses a wrong key (236) or no item (225)', async () => {
    const provider = createOfflineInvoicingProvider();
    const nfe = (await provider.issueNfe(input)) as { accessKey: string };
    const event = {
      ref: 'passada-pedido-9-extravio',
      type: '112130' as const,
      accessKey: nfe.accessKey,
      sequence: 1,
      issuedAt: new Date('2026-11-28T15:00:00Z'),
      emitter: input.emitter,
      items: [
        {
          item: 1,
          ibsCents: 8,
          cbsCents: 72,
          quantity: 1,
          unit: 'UN',
          purchaseIbsCents: 0,
          purchaseCbsCents: 0,
        },
      ],
    };
    expect(await provider.consultNfeEvent(event.ref)).toBeNull();
    const first = await provider.registerNfeEvent(event);
    expect(first).toMatchObject({ state: 'registrado' });
    expect(await provider.registerNfeEvent(event)).toEqual(first);
    expect(await provider.consultNfeEvent(event.ref)).toEqual(first);
    const wrongDigit = `${nfe.accessKey.slice(0, 43)}${(Number(nfe.accessKey[43]) + 1) % 10}`;
    expect(
      await provider.registerNfeEvent({
        ...event,
        ref: 'passada-pedido-9-extravio-b',
        accessKey: wrongDigit,
      }),
    ).toMatchObject({ state: 'rejeitada', code: '236' });
    expect(
      await provider.registerNfeEvent({ ...event, ref: 'passada-pedido-9-extravio-c', items: [] }),
    ).toMatchObject({ state: 'rejeitada', code: '225' });
  });
});
