import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserAndToken } from '../../test/factories/accounts.ts';
import { createTestApp, requirePostgres, type TestApp } from '../../test/test-app.ts';

// Real connections racing for one account's counter: PostgreSQL only.
requirePostgres();

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { LOGIN_MAX_FAILURES_PER_IP: '1000' } });
});
afterAll(() => t.close());

describe('login lockout under concurrency', () => {
  it('100 wrong passwords at once give at most 10 "Credenciais inválidas", the rest 429', async () => {
    const u = await createUserAndToken(t.app);
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        t.app.inject({
          method: 'POST',
          url: '/api/token-auth/',
          payload: { username: i % 2 ? u.username : u.email, password: `chute ${i}` },
          remoteAddress: `10.20.${Math.floor(i / 50)}.${i % 50}`,
        }),
      ),
    );
    const invalid = results.filter((r) => r.json().detail === 'Credenciais inválidas');
    const locked = results.filter((r) => r.statusCode === 429);
    expect(invalid.length).toBeLessThanOrEqual(10);
    expect(invalid.length).toBeGreaterThan(0);
    expect(locked.length).toBe(100 - invalid.length);
    expect(locked[0]?.json().detail).toContain('Esqueci minha senha');
    // The right password is refused too while the lock lasts.
    const right = await t.app.inject({
      method: 'POST',
      url: '/api/token-auth/',
      payload: { username: u.username, password: u.password },
    });
    expect(right.statusCode).toBe(429);
  });

  it('100 wrong passwords at once through one device cookie get at most 10 answers of its own, then 10 untrusted', async () => {
    const u = await createUserAndToken(t.app);
    const first = await t.app.inject({
      method: 'POST',
      url: '/api/token-auth/',
      payload: { username: u.username, password: u.password },
    });
    const cookies = Object.fromEntries(first.cookies.map((c) => [c.name, c.value]));
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        t.app.inject({
          method: 'POST',
          url: '/api/token-auth/',
          payload: { username: u.username, password: `chute ${i}` },
          cookies,
        }),
      ),
    );
    const invalid = results.filter((r) => r.json().detail === 'Credenciais inválidas');
    // OWASP's note: a device past its limit is judged as an untrusted browser, so at most N × 2.
    expect(invalid.length).toBeLessThanOrEqual(20);
    expect(invalid.length).toBeGreaterThan(10);
    expect(results.filter((r) => r.statusCode === 429).length).toBe(100 - invalid.length);
    const right = await t.app.inject({
      method: 'POST',
      url: '/api/token-auth/',
      payload: { username: u.username, password: u.password },
      cookies,
    });
    expect(right.statusCode).toBe(429);
  });
});
