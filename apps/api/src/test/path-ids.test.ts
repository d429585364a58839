import { INT4_MAX } from '@passada/core/contracts/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserAndToken, type TestUser } from './factories/accounts.ts';
import { createStaffAndLogin, type TestStaff } from './factories/painel.ts';
import { listOperations } from './openapi.ts';
import { createTestApp, type TestApp } from './test-app.ts';

/**
 * Every path parameter of the OpenAPI document, given a number past PostgreSQL's `integer` (the type of
 * every id column) and a much larger one: each must be refused or not found (4xx), never reach a query
 * that fails with 500. The other parameters of the path get `1`. Customers' routes are called signed
 * in, the back office's as an admin, so the parameter is read rather than the call refused first.
 */
/** The other parameters of a path, valid in form, so the one under test is the one read. */
const FILLERS: Record<string, string> = {
  token: 'a'.repeat(32),
  file: 'danfe.pdf',
  cpf: '40364478829',
  etiqueta: 'vip',
};
/** Parameters that are text, not ids: "2147483648" is a valid customer tag (docs/decisions/0080). */
const NOT_IDS = new Set(['etiqueta']);

describe('path parameters past the integer range', () => {
  let t: TestApp;
  let user: TestUser;
  let admin: TestStaff;

  beforeAll(async () => {
    t = await createTestApp();
    user = await createUserAndToken(t.app);
    admin = await createStaffAndLogin(t.app, 'admin');
  }, 180_000);
  afterAll(() => t.close());

  it('answers 4xx for every path parameter of every operation, never 500', async () => {
    const operations = (await listOperations(t.app)).filter((op) => op.params.length > 0);
    expect(operations.length).toBeGreaterThan(60);
    const failures: string[] = [];
    let sent = 0;
    for (const op of operations) {
      for (const param of op.params.filter((p) => !NOT_IDS.has(p))) {
        for (const big of [String(INT4_MAX + 1), '99999999999999999999']) {
          const url = op.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
            name === param ? big : (FILLERS[name] ?? '1'),
          );
          const headers = url.startsWith('/api/painel/') ? admin.headers : user.headers;
          const res = await t.app.inject({ method: op.method, url, headers, payload: {} });
          sent += 1;
          if (res.statusCode < 400 || res.statusCode >= 500)
            failures.push(`${op.method} ${url} → ${res.statusCode} ${res.body.slice(0, 120)}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThan(120);
  }, 600_000);
});
