import { Writable } from 'node:stream';
import { INT4_MAX } from '@passada/core/contracts/common';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorForLog } from '../plugins/errors.ts';
import { createUserAndToken, makeAddress, type TestUser } from './factories/accounts.ts';
import { type JsonSchema, listOperations, type Operation } from './openapi.ts';
import { createTestApp, type TestApp } from './test-app.ts';

/** Fixed, so a failure replays exactly; change it to explore other inputs. */
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
/**
 * Requests per operation, signed out and signed in. Bounded for `npm test` (100: about 43,000 requests);
 * `FUZZ_RUNS=1000 npx vitest run --project api src/test/api-fuzz.test.ts` sweeps deeper, and `FUZZ_SEED`
 * explores other inputs.
 */
const RUNS_PER_MODE = Number(process.env.FUZZ_RUNS ?? 100);
/** How long the sweep may run before the test runner gives up (it sends several thousand requests; speed is
 * measured in `npm run bench`, not here). */
const TIMEOUT_MS = 900_000;

// Secrets the generators mix into requests; none may show up in an error log line.
const CPF = '52998224725';
const CPF_MASKED = '529.982.247-25';

const logLines: string[] = [];
const logStream = new Writable({
  write(chunk: Buffer, _enc, done) {
    logLines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  },
});

let t: TestApp;
let user: TestUser;
let addressId: number;
let operations: Operation[];
beforeAll(async () => {
  t = await createTestApp({ env: { LOG_LEVEL: 'info' }, logger: true, logStream });
  user = await createUserAndToken(t.app);
  addressId = (
    await t.app.inject({
      method: 'POST',
      url: '/api/users/addresses/',
      headers: user.headers,
      payload: makeAddress(),
    })
  ).json().id;
  operations = await listOperations(t.app);
});
afterAll(() => t.close());

const nasty = [
  '',
  ' ',
  '0',
  '-1',
  '1.5',
  '1e3',
  '1e400',
  '0x1f',
  'NaN',
  'Infinity',
  String(INT4_MAX),
  String(INT4_MAX + 1),
  '99999999999',
  '9'.repeat(40),
  'null',
  'true',
  '[]',
  '{}',
  "' or 1=1 --",
  '%00',
  '\u0000',
  '\u202e\u0000\u0007\u001b[31m',
  'ção 🏃‍♀️ 名前',
  '\ud800',
  '../../etc/passwd',
  CPF,
  CPF_MASKED,
];
const nastyNumbers = [
  0,
  -1,
  -0,
  1.5,
  1e21,
  1e300,
  -1e300,
  Number.MAX_SAFE_INTEGER,
  INT4_MAX,
  INT4_MAX + 1,
  2 ** 63,
  Number.MIN_VALUE,
];

const anyText = (): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constantFrom(...nasty),
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.string({ unit: 'grapheme', maxLength: 20 }),
    fc.nat({ max: 30_000 }).map((n) => 'x'.repeat(n)),
    fc.constant(user.email),
    fc.constant(user.token),
  );
const anyNumber = (): fc.Arbitrary<number> =>
  fc.oneof(
    fc.constantFrom(...nastyNumbers),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
  );
const anyJson = (): fc.Arbitrary<unknown> =>
  fc.oneof(fc.jsonValue({ maxDepth: 4 }), fc.constant(null), anyText(), anyNumber());

/** A value shaped by the schema most of the time, so requests get past the first check and deeper. */
function valueFor(schema: JsonSchema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 5) return anyJson();
  const variants = [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])];
  if (variants.length > 0) return fc.oneof(...variants.map((v) => valueFor(v, depth + 1)));
  if (schema.enum && schema.enum.length > 0) return fc.oneof(fc.constantFrom(...schema.enum), anyJson());
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return fc.oneof({ weight: 4, arbitrary: anyText() }, { weight: 1, arbitrary: anyJson() });
    case 'integer':
    case 'number':
      return fc.oneof(
        { weight: 3, arbitrary: anyNumber() },
        { weight: 1, arbitrary: fc.constant(addressId) },
        { weight: 1, arbitrary: anyJson() },
      );
    case 'boolean':
      return fc.oneof(fc.boolean(), anyJson());
    case 'array':
      return fc.oneof(
        { weight: 4, arbitrary: fc.array(valueFor(schema.items, depth + 1), { maxLength: 5 }) },
        { weight: 1, arbitrary: fc.array(fc.constant(1), { minLength: 1000, maxLength: 5000 }) },
        { weight: 1, arbitrary: anyJson() },
      );
    case 'object':
      return objectFor(schema, depth);
    default:
      return anyJson();
  }
}

/** Each field present or missing, plus extra ones; sometimes the object is something else entirely. */
function objectFor(schema: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  const props = Object.entries(schema.properties ?? {});
  const shaped = fc
    .tuple(
      fc.record(Object.fromEntries(props.map(([k, v]) => [k, valueFor(v, depth + 1)])), {
        requiredKeys: [],
      }),
      fc.dictionary(fc.string({ maxLength: 10 }), anyJson(), { maxKeys: 3 }),
    )
    .map(([fields, extra]) => ({ ...extra, ...fields }));
  return fc.oneof({ weight: 5, arbitrary: shaped }, { weight: 1, arbitrary: anyJson() });
}

const deepNesting = fc.nat({ max: 30_000 }).map((n) => `${'['.repeat(n + 10)}${']'.repeat(n + 10)}`);
const badJson = fc.constantFrom('{', '{"a":', '[1,]', "{'a':1}", 'undefined', '\u0000', '{"a":1}}', 'nul');

/** A lone surrogate cannot be put in a URL; the client would send U+FFFD in its place. */
const wellFormed = (text: string) => Buffer.from(text, 'utf8').toString('utf8');

interface Generated {
  path: string;
  query: Record<string, string>;
  body?: { payload: string; contentType: string } | undefined;
}

function requestFor(op: Operation): fc.Arbitrary<Generated> {
  const pathArb = fc
    .tuple(...op.params.map(() => fc.oneof(fc.constantFrom(...nasty), anyText(), fc.nat().map(String))))
    .map((values) => {
      let i = 0;
      return op.path.replace(/\{[^}]+\}/g, () => encodeURIComponent(wellFormed(values[i++] ?? '')));
    });
  const queryArb = (
    op.query ? objectFor(op.query, 1) : fc.dictionary(fc.string({ maxLength: 8 }), anyText(), { maxKeys: 2 })
  ).map((q) =>
    q && typeof q === 'object' && !Array.isArray(q)
      ? Object.fromEntries(
          Object.entries(q).map(([k, v]) => [k, typeof v === 'string' ? v : (JSON.stringify(v) ?? '')]),
        )
      : {},
  );
  const bodyArb =
    op.method === 'GET' || op.method === 'DELETE'
      ? fc.constant(undefined)
      : fc.oneof(
          {
            weight: 8,
            arbitrary: valueFor(op.body ?? { type: 'object' }).map((v) => ({
              payload: JSON.stringify(v) ?? 'null',
              contentType: 'application/json',
            })),
          },
          { weight: 1, arbitrary: badJson.map((payload) => ({ payload, contentType: 'application/json' })) },
          {
            weight: 1,
            arbitrary: deepNesting.map((payload) => ({ payload, contentType: 'application/json' })),
          },
          {
            weight: 1,
            arbitrary: fc
              .tuple(
                fc.constantFrom(
                  'text/plain',
                  'application/x-www-form-urlencoded',
                  'multipart/form-data; boundary=x',
                  'application/xml',
                  'application/json; charset=latin1',
                ),
                anyText(),
              )
              .map(([contentType, payload]) => ({ payload, contentType })),
          },
        );
  return fc.record({ path: pathArb, query: queryArb, body: bodyArb });
}

const LEAK =
  /\bat .+:\d+:\d+\)?|node_modules|Failed query|\bselect\b[\s\S]{1,200}\bfrom\b|\binsert into\b|syntax error|"stack"/i;

describe('fuzzing every operation of the OpenAPI document', () => {
  it(
    'never answers 5xx, never leaks a stack or SQL, never logs personal data or query parameters',
    async () => {
      const started = Date.now();
      const failures: string[] = [];
      let sent = 0;
      const byStatus = new Map<number, number>();
      for (const [opIndex, op] of operations.entries()) {
        for (const signedIn of [false, true]) {
          const samples = fc.sample(requestFor(op), {
            seed: SEED + opIndex * 2 + Number(signedIn),
            numRuns: RUNS_PER_MODE,
          });
          for (const req of samples) {
            // Logging out revokes the token it carries; a fresh one keeps every request signed in.
            const token =
              signedIn && op.key.includes('logout')
                ? await t.app.accounts.users.issueToken(user.id)
                : user.token;
            const res = await t.app.inject({
              method: op.method,
              url: req.path,
              query: req.query,
              headers: {
                ...(signedIn ? { authorization: `Token ${token}` } : {}),
                ...(req.body ? { 'content-type': req.body.contentType } : {}),
              },
              ...(req.body ? { payload: req.body.payload } : {}),
            });
            sent += 1;
            byStatus.set(res.statusCode, (byStatus.get(res.statusCode) ?? 0) + 1);
            if (res.statusCode >= 500)
              failures.push(
                `${res.statusCode} ${op.key} ${req.path} ${JSON.stringify(req.query).slice(0, 150)} ${req.body?.payload.slice(0, 150) ?? ''}`,
              );
            else if (LEAK.test(res.body) && !res.headers['content-type']?.toString().startsWith('image/'))
              failures.push(`leak ${op.key} ${req.path} ${res.body.slice(0, 200)}`);
          }
        }
      }
      const loud = logLines.filter((line) => (JSON.parse(line) as { level: number }).level >= 40);
      const leakyLogs = loud.filter(
        (line) =>
          line.includes(CPF) ||
          line.includes(CPF_MASKED) ||
          line.toLowerCase().includes(user.email) ||
          line.includes(user.token) ||
          /Failed query|params:|\binsert into\b|\bselect\b/i.test(line),
      );
      console.info(
        `fuzz (FUZZ_SEED=${SEED}, FUZZ_RUNS=${RUNS_PER_MODE}): ${operations.length} operações, ${sent} requisições, ` +
          `${[...byStatus]
            .sort(([a], [b]) => a - b)
            .map(([s, n]) => `${s}×${n}`)
            .join(' ')}, ` +
          `${failures.length} falhas, ${loud.length} linhas de log warn/error, ${Date.now() - started} ms`,
      );
      expect(
        failures.filter((f, i) => failures.findIndex((g) => g.split(' ')[2] === f.split(' ')[2]) === i),
      ).toEqual([]);
      expect(leakyLogs.slice(0, 5)).toEqual([]);
      expect(sent).toBeGreaterThanOrEqual(operations.length * RUNS_PER_MODE * 2);
    },
    TIMEOUT_MS,
  );

  it('refuses ids out of range, negative, fractional, in exponent form or not numbers, in Portuguese', async () => {
    const bad = ['99999999999', String(INT4_MAX + 1), '-1', '0', '1.5', '1e3', 'abc', '%20'];
    const urls = (v: string) => [
      `/api/events/${v}/`,
      `/api/events/${v}/preco/?categorias=1&data_nascimento=1990-01-01`,
      `/api/products/${v}/`,
      `/api/products/1/?color=${v}`,
      `/api/users/addresses/${v}/`,
      `/api/participantes/cpf/${CPF}/?evento=${v}`,
      `/api/events/?page=${v}`,
    ];
    for (const v of bad) {
      for (const url of urls(v)) {
        const res = await t.app.inject({ method: 'GET', url, headers: user.headers });
        expect({ url, status: res.statusCode }).toEqual({ url, status: res.statusCode === 404 ? 404 : 400 });
        expect(res.json().detail).toMatch(/inválid|não encontrad/i);
      }
    }
    const body = await t.app.inject({
      method: 'POST',
      url: '/api/calcular-frete/',
      payload: { cepDestino: '60165121', items: [{ product: 99999999999, quantity: 1 }] },
    });
    expect(body.statusCode).toBe(400);
    expect(body.json().detail).toContain('Identificador inválido.');
  });

  it('keeps the query, its parameters and the database message out of the logged error', () => {
    const cause = Object.assign(new Error(`duplicate key value: (email)=(${user.email})`), {
      code: '23505',
      table: 'users',
      constraint: 'users_email_unique',
    });
    const failed = new Error(
      `Failed query: insert into "users" values ($1, $2)\nparams: ${user.email},${CPF}`,
      {
        cause,
      },
    );
    const logged = JSON.stringify(errorForLog(failed));
    expect(logged).not.toContain(user.email);
    expect(logged).not.toContain(CPF);
    expect(logged).not.toMatch(/insert into/i);
    expect(errorForLog(failed)).toMatchObject({ type: 'Error', code: '23505', table: 'users' });
  });
});
