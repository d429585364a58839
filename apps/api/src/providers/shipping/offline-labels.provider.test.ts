import { isNfeAccessKey } from '@passada/core/contracts/shipping-labels';
import { isS10Code } from '@passada/core/s10';
import { describe, expect, it } from 'vitest';
import { pdfLines } from '../../test/pdf-text.ts';
import type { LabelRequest, StoredLabel } from './label.provider.ts';
import {
  createOfflineLabelProvider,
  offlineTrackingCode,
  renderLabelsPdf,
} from './offline-labels.provider.ts';

const party = {
  name: 'Maria',
  phone: '85999999999',
  street: 'Rua A, 1',
  neighborhood: 'Centro',
  city: 'Fortaleza',
  state: 'CE',
  cep: '60165121',
};
const request = (orderId: number, service: LabelRequest['service'] = 'PAC'): LabelRequest => ({
  orderId,
  service,
  sender: party,
  recipient: party,
  pkg: { weightGrams: 300, lengthCm: 24, widthCm: 16, heightCm: 4 },
  declaredValueCents: 12_990,
  nfeKey: null,
  products: [{ name: 'Camiseta', quantity: 1, unitCents: 12_990 }],
});

describe('offline label provider', () => {
  it('answers a real-format S10 code, the same for the same order', async () => {
    const provider = createOfflineLabelProvider();
    for (const id of [1, 42, 123_456_789]) {
      const { ref } = await provider.create(request(id));
      const a = await provider.purchase(ref, request(id));
      const b = await provider.purchase(ref, request(id));
      expect(isS10Code(a.trackingCode)).toBe(true);
      expect(b.trackingCode).toBe(a.trackingCode);
    }
    expect(offlineTrackingCode(7, 'SEDEX')).toMatch(/^SX00000007\dBR$/);
  });

  it('moves the parcel along with time: posted, out for delivery, delivered', async () => {
    const provider = createOfflineLabelProvider();
    const bought = new Date('2026-11-23T15:00:00Z');
    const label: StoredLabel = {
      orderId: 5,
      providerRef: 'offline-5',
      trackingCode: offlineTrackingCode(5, 'SEDEX'),
      purchasedAt: bought,
      request: request(5, 'SEDEX'),
    };
    const at = async (hours: number) =>
      (await provider.track([label], new Date(bought.getTime() + hours * 3_600_000))).get('offline-5')!.state;
    expect(await at(1)).toBe('aguardando_postagem');
    expect(await at(2)).toBe('postado');
    expect(await at(24)).toBe('saiu_para_entrega');
    expect(await at(30)).toBe('entregue');
    expect(await at(300)).toBe('entregue');
  });

  it('prints the house number and complement after the street: "Rua X, 100 – Apto 2"', async () => {
    const r = request(9);
    const label: StoredLabel = {
      orderId: 9,
      providerRef: 'offline-9',
      trackingCode: offlineTrackingCode(9, 'PAC'),
      purchasedAt: new Date('2026-11-23T15:00:00Z'),
      request: {
        ...r,
        recipient: { ...party, street: 'Rua X', number: '100', complement: 'Apto 2' },
        sender: { ...party, street: 'Av. Beira Mar, 3000, loja 12' },
      },
    };
    const lines = pdfLines(await renderLabelsPdf([label]));
    expect(lines).toContain('Rua X, 100 – Apto 2');
    // A street kept in one line (the shop's own address) is read the same way.
    expect(lines).toContain('Av. Beira Mar, 3000 – loja 12');
    expect(lines).toContain('Maria');
  });

  it('checks NF-e access keys by their mod-11 digit', () => {
    expect(isNfeAccessKey('23261112345678000199550010000000011000000011')).toBe(true);
    expect(isNfeAccessKey('23261112345678000199550010000000011000000012')).toBe(false);
    expect(isNfeAccessKey('2326111234567800019955001000000001100000001')).toBe(false);
  });
});
