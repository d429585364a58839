import { Writable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeEvent } from '../../test/factories/events.ts';
import { createStaffAndLogin } from '../../test/factories/painel.ts';
import { cpfFrom } from '../../test/factories/registrations.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

// The lottery's list is searched by CPF through its address (GET ?busca=): no log line carries it, not
// even the request lines at `debug`.
const logLines: string[] = [];
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    logger: true,
    logStream: new Writable({
      write(chunk, _enc, done) {
        logLines.push(String(chunk));
        done();
      },
    }),
    env: { LOG_LEVEL: 'debug', JOBS_ENABLED: 'false' },
  });
});
afterAll(() => t.close());

it('logs no CPF searched in the lottery’s list or its CSV', async () => {
  const staff = await createStaffAndLogin(t.app, 'gerente');
  const event = await makeEvent(t.app.db, { name: 'Corrida do Registro Discreto' });
  const now = Date.now();
  const saved = await t.app.inject({
    method: 'PUT',
    url: `/api/painel/events/${event.id}/abertura/`,
    headers: staff.headers,
    payload: {
      modo: 'sorteio',
      abre_em: new Date(now).toISOString(),
      pre_fila_minutos: 0,
      admitidos_por_minuto: null,
      minutos_da_vez: 15,
      inscricoes_por_cpf: 1,
      inscricoes_por_comprador: 4,
      sorteio: {
        inscricoes_de: new Date(now).toISOString(),
        inscricoes_ate: new Date(now + 3_600_000).toISOString(),
        vagas: 10,
        horas_para_pagar: 24,
      },
    },
  });
  expect(saved.statusCode).toBe(200);
  const cpf = cpfFrom(737_100_000);
  const formatted = cpf.replace(/(\d{3})(\d{3})(\d{3})(\d{2})/, '$1.$2.$3-$4');
  for (const url of [
    `/api/painel/events/${event.id}/sorteio/inscricoes/?busca=${cpf}`,
    `/api/painel/events/${event.id}/sorteio/inscricoes/?estado=inscrito&busca=${encodeURIComponent(formatted)}`,
    `/api/painel/events/${event.id}/sorteio/inscricoes.csv?busca=${cpf}`,
  ])
    expect((await t.app.inject({ method: 'GET', url, headers: staff.headers })).statusCode).toBe(200);
  const logs = logLines.join('');
  expect(logs).toContain('busca=[oculto]');
  for (const shown of [cpf, formatted, encodeURIComponent(formatted), cpf.slice(0, 9)])
    expect(logs).not.toContain(shown);
});
