import { XMLParser } from 'fast-xml-parser';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { makeProduct } from '../../test/factories/catalog.ts';
import { documentsOf, fiscalForm, paidCardOrder, saveProductFiscal } from '../../test/factories/fiscal.ts';
import { makeBuyer } from '../../test/factories/orders.ts';
import { createStaffAndLogin } from '../../test/factories/painel.ts';
import { useClockedTestApp } from '../../test/test-app.ts';
import { untilJobsDone } from '../../test/wait-until.ts';

/**
 * The CBS rate of 2027 (docs/decisions/0059, later): LC 214/2025 fixes the IBS of 2027 (art. 344, 0,05 %
 * + 0,05 %) but leaves the CBS to a resolution of the Senado Federal (art. 349), so staff enter it, with
 * its source, on the fiscal screen. Ahead of 2027 the screen warns that the notas will stop without it; in
 * 2027 a nota stops with the reason until it is entered, and the retry then carries the rates.
 */

const DEC_2026 = new Date('2026-12-02T15:00:00Z');
const JAN_2027 = new Date('2027-01-04T15:00:00Z');
const xml = new XMLParser({ parseTagValue: false, ignoreAttributes: false });
const asList = <T>(v: T | T[]) => (Array.isArray(v) ? v : [v]);

async function putSettings(
  app: FastifyInstance,
  headers: Record<string, string>,
  over: Record<string, unknown>,
) {
  const current = await app.inject({ method: 'GET', url: '/api/painel/fiscal/', headers });
  return app.inject({
    method: 'PUT',
    url: '/api/painel/fiscal/',
    headers,
    payload: { ...fiscalForm(over), versao: current.json().versao },
  });
}
const reforma = (app: FastifyInstance, headers: Record<string, string>) =>
  app.inject({ method: 'GET', url: '/api/painel/fiscal/reforma/', headers });

describe('the CBS rate of 2027 in December 2026', () => {
  const t = useClockedTestApp(DEC_2026);

  it('the screen warns the notas stop from 01/01/2027; a rate without its source answers 400; with it, saved', async () => {
    const admin = await createStaffAndLogin(t.app, 'admin');
    expect((await putSettings(t.app, admin.headers, {})).statusCode).toBe(200);
    const before = (await reforma(t.app, admin.headers)).json();
    expect(before.aviso).toContain('Falta a alíquota da CBS de 2027');
    expect(before.aviso).toContain('a partir de 01/01/2027 as notas fiscais param');
    expect(before.aviso).toContain('resolução do Senado Federal (LC 214/2025, art. 349)');

    const unsourced = await putSettings(t.app, admin.headers, { cbs_2027: '8,8' });
    expect(unsourced.statusCode).toBe(400);
    expect(unsourced.json().errors.cbs_2027_fonte).toBe(
      'Informe a fonte da alíquota da CBS de 2027 (a resolução do Senado Federal que a fixou).',
    );
    const garbled = await putSettings(t.app, admin.headers, { cbs_2027: '8,8%', cbs_2027_fonte: 'x' });
    expect(garbled.statusCode).toBe(400);
    expect(garbled.json().errors.cbs_2027).toBe(
      'Alíquota em percentual, com até 4 casas decimais (ex.: 8,8000).',
    );
    const unchanged = await t.app.inject({
      method: 'GET',
      url: '/api/painel/fiscal/',
      headers: admin.headers,
    });
    expect(unchanged.json().cbs_2027).toBe('');

    const saved = await putSettings(t.app, admin.headers, {
      cbs_2027: '8,8',
      cbs_2027_fonte: 'Resolução do Senado Federal (teste)',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({
      cbs_2027: '8,8000',
      cbs_2027_fonte: 'Resolução do Senado Federal (teste)',
    });
    expect((await reforma(t.app, admin.headers)).json().aviso).toBeNull();
  });
});

describe('the CBS rate of 2027 in January 2027', { timeout: 180_000 }, () => {
  const t = useClockedTestApp(JAN_2027);

  it('a Simples shop’s NF-e stops naming the Senate’s rate; entered, the retry carries CBS 8,8 % and IBS 0,05 % + 0,05 %', async () => {
    const admin = await createStaffAndLogin(t.app, 'admin');
    const buyer = await makeBuyer(t.app);
    expect((await putSettings(t.app, admin.headers, { regime: 'simples_nacional' })).statusCode).toBe(200);
    expect((await reforma(t.app, admin.headers)).json().aviso).toContain(
      'As notas fiscais de 2027 estão paradas',
    );
    const product = await makeProduct(t.database.db, { priceCents: 10_000 });
    await saveProductFiscal(t.app, admin.headers, product.id);
    const orderId = await paidCardOrder(t.app, buyer, product, 1);
    await untilJobsDone(t.database.db, 'fiscal.issue-order');
    const stopped = (await documentsOf(t.database.db, orderId)).find((d) => d.kind === 'nfe')!;
    expect(stopped.status).toBe('erro');
    expect(stopped.reason).toContain(
      'informe a alíquota da CBS de 2027, fixada por resolução do Senado Federal (LC 214/2025, art. 349)',
    );

    const saved = await putSettings(t.app, admin.headers, {
      regime: 'simples_nacional',
      cbs_2027: '8,8',
      cbs_2027_fonte: 'Resolução do Senado Federal (teste)',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const retried = await t.app.inject({
      method: 'POST',
      url: `/api/painel/notas/${stopped.id}/tentar-novamente/`,
      headers: admin.headers,
    });
    expect(retried.statusCode, retried.body).toBe(202);
    await untilJobsDone(t.database.db, 'fiscal.process');
    const doc = (await documentsOf(t.database.db, orderId)).find((d) => d.kind === 'nfe')!;
    expect(doc.status, doc.reason ?? '').toBe('autorizada');
    const nfe = xml.parse(doc.xml!.toString()).nfeProc.NFe.infNFe;
    for (const det of asList(nfe.det))
      expect(det.imposto.IBSCBS.gIBSCBS).toMatchObject({
        gIBSUF: { pIBSUF: '0.0500' },
        gIBSMun: { pIBSMun: '0.0500' },
        gCBS: { pCBS: '8.8000' },
      });
    // R$ 100,00 plus the shipping: CBS 8,8 % of the base.
    const base = Number(nfe.total.IBSCBSTot.vBCIBSCBS);
    expect(nfe.total.IBSCBSTot.gCBS.vCBS).toBe((Math.round(base * 8.8) / 100).toFixed(2));
  });
});
