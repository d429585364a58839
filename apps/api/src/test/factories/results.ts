import { expect } from 'vitest';
import type { TestApp } from '../test-app.ts';
import type { TestUser } from './accounts.ts';
import { type MadeEvent, makeEvent } from './events.ts';
import type { TestStaff } from './painel.ts';
import { simulatePixPaid } from './payments.ts';
import { participantsFrom, registrationPix } from './registrations.ts';

/**
 * A race run and its results published, through the real HTTP layer: `buyer` registers and pays each
 * runner (in the given order, so the bibs are 1, 2, 3… in name order when the names are sorted), staff
 * number the bibs, and the timer's file (a gun time per bib, all finished) is imported and published.
 */
export async function publishedRace(
  t: TestApp,
  opts: {
    buyer: TestUser;
    staff: TestStaff;
    name: string;
    firstCpf: number;
    /** Each runner's name and distance ("5 km" or "10 km"). */
    runners: Array<[name: string, distance: '5 km' | '10 km']>;
  },
): Promise<{ event: MadeEvent; cpfOf: Map<string, string> }> {
  const painel = (url: string, payload?: unknown) =>
    t.app.inject({
      method: 'POST',
      url: `/api/painel${url}`,
      headers: opts.staff.headers,
      payload: payload ?? {},
    });
  const event = await makeEvent(t.app.db, { name: opts.name, today: '2026-11-22', startDate: '2026-12-20' });
  const [fiveKm, tenKm] = event.days[0]!.categories;
  const next = participantsFrom(opts.firstCpf);
  const cpfOf = new Map<string, string>();
  for (const [name, distance] of opts.runners) {
    const draft = next(event, name, (distance === '5 km' ? fiveKm : tenKm)!.id);
    cpfOf.set(name, draft.cpf);
    const price = await registrationPix(t.app, draft, 0.01, opts.buyer.headers);
    const pix = await registrationPix(t.app, draft, price.json().total_correto, opts.buyer.headers);
    expect(pix.statusCode, pix.body).toBe(201);
    expect((await simulatePixPaid(t.app, pix.json().txid)).statusCode).toBe(200);
  }
  const bibs = await painel(`/events/${event.id}/numeros-de-peito/`, { modo: 'sequencia', inicio: 1 });
  expect(bibs.statusCode, bibs.body).toBe(200);
  const timer = await painel('/cronometragens/', {
    nome: `Chip de ${opts.name}`,
    colunas: { numero: 'Peito', tempo_bruto: 'Bruto', tempo_liquido: null, situacao: 'Status' },
  });
  const lines = opts.runners.map((_, i) => `${i + 1};00:${String(30 + i).padStart(2, '0')}:00;OK`);
  const preview = await painel(`/events/${event.id}/resultados/importacoes/`, {
    cronometragem: timer.json().id,
    conteudo: `Peito;Bruto;Status\n${lines.join('\n')}\n`,
  });
  expect(preview.statusCode, preview.body).toBe(201);
  const done = await painel(`/events/${event.id}/resultados/importacoes/${preview.json().id}/publicar/`);
  expect(done.statusCode, done.body).toBe(200);
  return { event, cpfOf };
}
