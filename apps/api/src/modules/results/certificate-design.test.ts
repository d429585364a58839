import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../db/schema/index.ts';
import { createUserAndToken } from '../../test/factories/accounts.ts';
import type { MadeEvent } from '../../test/factories/events.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { publishedRace } from '../../test/factories/results.ts';
import { pdfColors } from '../../test/pdf-reader.ts';
import { pdfLines } from '../../test/pdf-text.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { untilJobsDone } from '../../test/wait-until.ts';

/** The outbox's `.eml` files as written (attachments still in base64), oldest first. */
function rawOutbox(dataDir: string): string[] {
  const dir = path.join(dataDir, 'outbox');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .map((f) => path.join(dir, f))
    .sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs || a.localeCompare(b))
    .map((f) => readFileSync(f, 'utf8'));
}

/** The PDF attached to an e-mail of the outbox (its base64 part, after the part's headers), by file name. */
function attachment(mail: string, filename: string): Buffer {
  const at = mail.indexOf(filename);
  expect(at).toBeGreaterThan(0);
  const body = mail.slice(mail.indexOf('\n\n', at) + 2);
  return Buffer.from(body.slice(0, body.indexOf('\n--')).replace(/\s+/g, ''), 'base64');
}

/**
 * The event's certificate design (decision 0064, later): staff choose the layout, the colour, who signs
 * and a line of theirs; every certificate of the event, downloaded or e-mailed by the publication's job,
 * is drawn with it; a form opened before someone else's save cannot overwrite it.
 */
describe('the certificate design staff choose', () => {
  let t: TestApp;
  let manager: TestStaff;
  let event: MadeEvent;
  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date('2026-11-22T12:00:00Z') });
    manager = await createStaffAndLogin(t.app, 'gerente');
    ({ event } = await publishedRace(t, {
      buyer: await createUserAndToken(t.app),
      staff: manager,
      name: 'Corrida do Desenho',
      firstCpf: 7300,
      runners: [
        ['Rita Traço', '10 km'],
        ['Sara Linha', '10 km'],
      ],
    }));
    // The race's own publication e-mailed its certificates; the last test reads only the next ones.
    await untilJobsDone(t.app.db, 'mail.result-certificate');
  });
  afterAll(() => t.close());

  const painel = (method: 'GET' | 'PUT', url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url: `/api/painel/events/${event.id}${url}`,
      headers: manager.headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const certificate = async (bib: number) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/events/${event.id}/resultados/${bib}/certificado.pdf`,
    });
    expect(res.statusCode).toBe(200);
    return res.rawPayload;
  };
  const design = {
    modelo: 'faixa',
    cor: '#1d4ed8',
    assinatura_nome: 'Marta Rocha',
    assinatura_cargo: 'Diretora de prova',
    mensagem: 'Parabéns pela conquista!',
  };

  it('starts from the classic layout in the brand’s orange, unsigned, and refuses a bad colour or layout in Portuguese', async () => {
    const first = await painel('GET', '/resultados/certificado/');
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      modelo: 'classico',
      cor: '#EA580C',
      assinatura_nome: null,
      assinatura_cargo: null,
      mensagem: null,
      versao: 1,
    });
    expect(pdfColors(await certificate(1))).toContain('#EA580C');

    const badColour = await painel('PUT', '/resultados/certificado/', { ...design, cor: 'azul', versao: 1 });
    expect(badColour.statusCode).toBe(400);
    expect(badColour.body).toContain('Informe a cor no formato #RRGGBB');
    const badLayout = await painel('PUT', '/resultados/certificado/', {
      ...design,
      modelo: 'neon',
      versao: 1,
    });
    expect(badLayout.statusCode).toBe(400);
    expect(badLayout.body).toContain('Escolha um dos modelos de certificado.');
    const long = await painel('PUT', '/resultados/certificado/', {
      ...design,
      mensagem: 'x'.repeat(161),
      versao: 1,
    });
    expect(long.statusCode).toBe(400);
    expect((await painel('GET', '/resultados/certificado/')).json().versao).toBe(1);
  });

  it('draws every certificate in the saved design, and a stale form cannot overwrite it', async () => {
    const saved = await painel('PUT', '/resultados/certificado/', { ...design, versao: 1 });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({ ...design, cor: '#1D4ED8', versao: 2 });
    const [line] = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'resultados_certificado'), eq(auditLog.entityId, String(event.id))));
    expect(line).toBeDefined();

    const pdf = await certificate(1);
    const text = pdfLines(pdf).join('\n');
    expect(text).toContain('Rita Traço');
    expect(text).toContain('Marta Rocha');
    expect(text).toContain('Diretora de prova');
    expect(text).toContain('Parabéns pela conquista!');
    const colors = pdfColors(pdf);
    expect(colors).toContain('#1D4ED8');
    expect(colors).not.toContain('#EA580C');

    // Someone saved from the page opened before that save: refused, nothing changed.
    const stale = await painel('PUT', '/resultados/certificado/', { ...design, cor: '#000000', versao: 1 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ code: 'versao_desatualizada' });
    expect((await painel('GET', '/resultados/certificado/')).json()).toMatchObject({
      cor: '#1D4ED8',
      versao: 2,
    });

    // The sample staff open shows the same design with a made-up finisher.
    const sample = await painel('GET', '/resultados/certificado/amostra.pdf');
    expect(sample.statusCode).toBe(200);
    expect(sample.headers['content-type']).toBe('application/pdf');
    expect(pdfLines(sample.rawPayload).join('\n')).toContain('Nome da Participante');
    expect(pdfColors(sample.rawPayload)).toContain('#1D4ED8');
  });

  it('e-mails the certificate of a corrected result in the saved design (the publication’s job draws it)', async () => {
    const timer = await t.app.inject({
      method: 'POST',
      url: '/api/painel/cronometragens/',
      headers: manager.headers,
      payload: {
        nome: 'Chip da correção',
        colunas: { numero: 'Peito', tempo_bruto: 'Bruto', tempo_liquido: null, situacao: null },
      },
    });
    expect(timer.statusCode, timer.body).toBe(201);
    const preview = await t.app.inject({
      method: 'POST',
      url: `/api/painel/events/${event.id}/resultados/importacoes/`,
      headers: manager.headers,
      payload: { cronometragem: timer.json().id, conteudo: 'Peito;Bruto\n1;00:29:30\n2;00:31:00\n' },
    });
    expect(preview.statusCode, preview.body).toBe(201);
    const before = rawOutbox(t.dataDir).length;
    const published = await t.app.inject({
      method: 'POST',
      url: `/api/painel/events/${event.id}/resultados/importacoes/${preview.json().id}/publicar/`,
      headers: manager.headers,
      payload: {},
    });
    expect(published.statusCode, published.body).toBe(200);
    await untilJobsDone(t.app.db, 'mail.result-certificate');
    const mails = rawOutbox(t.dataDir).slice(before);
    const rita = mails.findLast((m) => m.includes('certificado-1.pdf'));
    expect(rita).toBeDefined();
    const pdf = attachment(rita!, 'certificado-1.pdf');
    const text = pdfLines(pdf).join('\n');
    expect(text).toContain('Tempo bruto: 0:29:30');
    expect(text).toContain('Marta Rocha');
    expect(pdfColors(pdf)).toContain('#1D4ED8');
  });
});
