import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserAndToken } from '../test/factories/accounts.ts';
import { listOperations, type Operation } from '../test/openapi.ts';
import { createTestApp, type TestApp } from '../test/test-app.ts';

let t: TestApp;
let operations: Operation[];
beforeAll(async () => {
  t = await createTestApp();
  operations = await listOperations(t.app);
});
afterAll(() => t.close());

/** Operations anyone may call; every other one must be marked as needing a login. */
const PUBLIC = new Set([
  'GET /api/health',
  'GET /api/health/ready',
  'GET /api/health/live',
  'GET /api/config/',
  'POST /api/users/',
  'POST /api/token-auth/',
  'POST /api/token-auth/logout/',
  'POST /api/token-auth/link/',
  'POST /api/users/password-reset/',
  'POST /api/users/password-reset/confirm/',
  // The e-mail confirmation link: its single-use token is the key (docs/decisions/0057).
  'POST /api/users/confirmar-email/',
  'GET /api/cep/{cep}/',
  'GET /api/products/',
  'GET /api/products/category/{category}/',
  'GET /api/products/search/',
  'GET /api/products/{id}/',
  'GET /api/media/products/{file}',
  'GET /api/events/',
  'GET /api/events/{id}/',
  'GET /api/media/events/{file}',
  'GET /api/events/{id}/preco/',
  'GET /api/events/{id}/pos-venda/',
  // The waitlist: joining needs no account; the entry is reached through its signed e-mailed link.
  // Back-in-stock alerts, size guide and fit, published reviews (decisions 0069–0071).
  'POST /api/products/{id}/avise-me/',
  'GET /api/products/{id}/tamanhos/',
  'GET /api/products/{id}/avaliacoes/',
  'GET /api/events/{id}/lista-espera/',
  'POST /api/events/{id}/lista-espera/',
  'GET /api/lista-espera/{token}/',
  'POST /api/lista-espera/{token}/sair/',
  // The links e-mailed to a new runner (random token) and to a participant (signed): docs/decisions/0041.
  'GET /api/transferencias/{token}/',
  'GET /api/transferencias/{token}/preco/',
  'GET /api/inscricoes/link/{token}/',
  'POST /api/inscricoes/link/{token}/cancelar/',
  'POST /api/inscricoes/link/{token}/transferir/',
  'POST /api/inscricoes/link/{token}/transferencia/cancelar/',
  'GET /api/inscricoes/link/{token}/diferenca-preco/',
  'GET /api/inscricoes/link/{token}/troca-distancia/',
  'POST /api/inscricoes/link/{token}/trocar-distancia/',
  'POST /api/inscricoes/link/{token}/trocar-tamanho/',
  'POST /api/inscricoes/link/{token}/alteracoes/',
  'POST /api/inscricoes/link/{token}/alteracoes/cotacao/',
  'GET /api/inscricoes/link/{token}/retirada-autorizada/',
  'PUT /api/inscricoes/link/{token}/retirada-autorizada/',
  'DELETE /api/inscricoes/link/{token}/retirada-autorizada/',
  'PUT /api/inscricoes/link/{token}/retirada-equipe/',
  // Which team a join code names (name and event, no member; decision 0067).
  'GET /api/equipes/codigo/{codigo}/',
  'GET /api/equipes/vagas/{token}/',
  'GET /api/equipes/convite/{token}/',
  'POST /api/equipes/convite/{token}/resposta/',
  'GET /api/events/{id}/regras-preco/',
  // Opening day: what the page shows, and the position polls (the signed turn is the credential).
  'GET /api/events/{id}/abertura/',
  'GET /api/events/{id}/fila/',
  'GET /api/events/{id}/sorteio/',
  'GET /api/events/{id}/ondas/',
  'GET /api/events/{id}/resultados/',
  'GET /api/events/{id}/resultados/{numero}/',
  'GET /api/events/{id}/resultados/{numero}/certificado.pdf',
  'GET /api/resultados/certificados/{codigo}/',
  'GET /api/home/',
  'POST /api/calcular-frete/',
  'GET /api/parcelas/',
  // Authenticated by mTLS or the webhook secret, not by a user's token.
  'POST /api/webhooks/pix/',
  'POST /api/webhooks/pix/pix',
  'POST /api/webhooks/cartao/',
  // Meta's WhatsApp webhook: the verify token answers the check, X-Hub-Signature-256 signs each POST.
  'GET /api/webhooks/whatsapp/',
  'POST /api/webhooks/whatsapp/',
  'POST /api/simulador/pix/{txid}/pagar',
  'POST /api/simulador/cartao/token',
  // The back office's own sign-in, and the uploaded pictures it serves to the shop.
  'POST /api/painel/auth/login/',
  'GET /api/media/uploads/{folder}/{file}',
  // The e-mails' logo (mail programs fetch it) and a review's photo (the product page shows it).
  'GET /api/media/marca/logo-email.png',
  'GET /api/media/avaliacoes/{file}',
  // A nota's PDF and XML: the random token in the e-mailed link is the key.
  'GET /api/notas/{id}/{token}/{file}',
]);

const garbage = { nada: 'disso', evento: 'x'.repeat(5000), cpf: 12 };

describe('authentication before anything else', () => {
  it('marks every operation that is not public as needing the token', () => {
    const unmarked = operations.filter((op) => !op.secured && !PUBLIC.has(op.key)).map((op) => op.key);
    expect(unmarked).toEqual([]);
    const securedButPublic = operations.filter((op) => op.secured && PUBLIC.has(op.key)).map((op) => op.key);
    expect(securedButPublic).toEqual([]);
    expect(operations.filter((op) => op.secured).length).toBeGreaterThanOrEqual(16);
  });

  it('answers 401 on every protected operation, without a token or with a bad one, whatever the body and params', async () => {
    const secured = operations.filter((op) => op.secured);
    const deleted = await createUserAndToken(t.app);
    await t.app.inject({
      method: 'DELETE',
      url: '/api/users/profile/',
      headers: deleted.headers,
      payload: { password: deleted.password },
    });
    const headerSets: Record<string, string>[] = [
      {},
      { authorization: 'Token nao-existe' },
      { authorization: 'Bearer' },
      deleted.headers,
    ];
    for (const op of secured) {
      for (const headers of headerSets) {
        const url = op.path.replace(/\{[^}]+\}/g, '99999999999999');
        const res = await t.app.inject({
          method: op.method,
          url,
          headers: { ...headers, 'content-type': 'application/json' },
          ...(op.method === 'GET' || op.method === 'DELETE' ? {} : { payload: JSON.stringify(garbage) }),
        });
        expect({ op: op.key, status: res.statusCode }).toEqual({ op: op.key, status: 401 });
        // The back office has its own sign-in, so its gate says where to sign in.
        const detail = op.path.startsWith('/api/painel/')
          ? 'Entre no painel para continuar.'
          : 'Faça login para continuar.';
        expect(res.json()).toEqual({ detail, code: 'not_authenticated' });
      }
      // Not even a malformed body reaches the parser.
      const broken = await t.app.inject({
        method: op.method,
        url: op.path.replace(/\{[^}]+\}/g, 'x'),
        headers: { 'content-type': 'application/json' },
        payload: '{"sem fim',
      });
      expect({ op: op.key, status: broken.statusCode }).toEqual({ op: op.key, status: 401 });
    }
  });

  it('still lets a signed-in user through to validation', async () => {
    const u = await createUserAndToken(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/participantes/cadastrar/',
      headers: u.headers,
      payload: garbage,
    });
    expect(res.statusCode).toBe(400);
  });
});
