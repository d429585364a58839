import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { createTestApp, requirePostgres, type TestApp } from '../../test/test-app.ts';

// Parallel guesses on several connections: PostgreSQL only (npm test provides one).
requirePostgres();

describe('painel: parallel sign-in guesses on one e-mail', () => {
  let t: TestApp;
  let member: TestStaff;
  beforeAll(async () => {
    t = await createTestApp({ env: { PAINEL_LOGIN_RATE_LIMIT_PER_IP: '1000' } });
    member = await createStaffAndLogin(t.app, 'operador');
  });
  afterAll(() => t.close());

  it('checks at most PAINEL_LOGIN_LOCK_AFTER (10) of 40 guesses sent at once, known or unknown e-mail', async () => {
    for (const email of [member.email, `ninguem.${process.pid}@passada.com.br`]) {
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          t.app.inject({
            method: 'POST',
            url: '/api/painel/auth/login/',
            payload: { email, password: `chute-paralelo-${i}` },
          }),
        ),
      );
      const codes = answers.map((a) => a.statusCode).sort();
      // Each attempt counts before its password is checked, under the upsert's row lock.
      expect(
        codes.filter((c) => c === 401),
        email,
      ).toHaveLength(10);
      expect(
        codes.filter((c) => c === 429),
        email,
      ).toHaveLength(30);
    }
  });
});
