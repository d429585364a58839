import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import helmet, { type HelmetOptions } from 'helmet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app.ts';
import { helmetHeaders } from './security-headers.ts';

const options: HelmetOptions = {
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", "'sha256-abc='"],
      upgradeInsecureRequests: null,
    },
  },
  crossOriginEmbedderPolicy: false,
};

/** What helmet itself sets on a real node:http answer, run per request as middleware. */
async function helmetOnARealServer(opts: HelmetOptions): Promise<Record<string, string>> {
  const server = createServer((req, res) => {
    res.setHeader('x-powered-by', 'anything');
    helmet(opts)(req, res, () => res.end('ok'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    await res.text();
    const skip = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);
    return Object.fromEntries([...res.headers].filter(([name]) => !skip.has(name)));
  } finally {
    server.close();
  }
}

describe('security headers', () => {
  it('are the ones helmet sets, computed once', async () => {
    expect(helmetHeaders(options)).toEqual(await helmetOnARealServer(options));
  });

  describe('on every answer of the app', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp();
    });
    afterAll(() => t.close());

    it.each(['/api/health', '/api/products/', '/api/nao-existe/'])('%s', async (url) => {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.headers['content-security-policy']).toContain("default-src 'self'");
      expect(res.headers['content-security-policy']).toContain('frame-src');
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['cross-origin-embedder-policy']).toBeUndefined();
    });
  });
});
