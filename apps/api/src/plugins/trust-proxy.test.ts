import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnvError, loadEnv } from '../config/env.ts';
import { createTestApp, type TestApp } from '../test/test-app.ts';

describe('TRUST_PROXY setting', () => {
  it('takes false, a hop count or a list of addresses and CIDRs', () => {
    expect(loadEnv({}).TRUST_PROXY).toBe(false);
    expect(loadEnv({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(loadEnv({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(loadEnv({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.10,::1' }).TRUST_PROXY).toEqual([
      '10.0.0.0/8',
      '192.168.1.10',
      '::1',
    ]);
  });

  it('refuses "true" saying what to set instead, and refuses garbage', () => {
    expect(() => loadEnv({ TRUST_PROXY: 'true' })).toThrow(EnvError);
    expect(() => loadEnv({ TRUST_PROXY: 'true' })).toThrow(
      /TRUST_PROXY: true confiaria em qualquer cliente; use o número/,
    );
    expect(() => loadEnv({ TRUST_PROXY: '10.0.0.0/99' })).toThrow(/TRUST_PROXY/);
    expect(() => loadEnv({ TRUST_PROXY: 'proxy.local' })).toThrow(/TRUST_PROXY/);
  });
});

describe('a client that writes its own X-Forwarded-For', () => {
  let hops: TestApp;
  let list: TestApp;
  beforeAll(async () => {
    [hops, list] = await Promise.all([
      createTestApp({ env: { TRUST_PROXY: '1', SIGNUP_RATE_LIMIT_MAX: '2' } }),
      createTestApp({ env: { TRUST_PROXY: '10.0.0.0/8', SIGNUP_RATE_LIMIT_MAX: '2' } }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([hops?.close(), list?.close()]);
  });

  /** Three sign-ups from one real client, each claiming a different address before the proxy's entry. */
  async function spoofedSignUps(app: TestApp['app'], via: { socket: string; realClient: string }) {
    const codes: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/users/',
        remoteAddress: via.socket,
        headers: { 'x-forwarded-for': `203.0.113.${i + 1}, ${via.realClient}` },
        payload: {
          username: `proxiado${i}_${via.socket.replaceAll('.', '')}`,
          email: `proxiado${i}_${via.socket.replaceAll('.', '')}@example.com`,
          full_name: 'Cliente Proxiado',
          password: 'senha longa o bastante',
        },
      });
      codes.push(res.statusCode);
    }
    return codes;
  }

  it('cannot dodge the per-IP limit with a hop count', async () => {
    expect(await spoofedSignUps(hops.app, { socket: '10.0.0.5', realClient: '198.51.100.7' })).toEqual([
      201, 201, 429,
    ]);
  });

  it('cannot dodge it with a list of proxies either, and a direct client is counted by its socket', async () => {
    expect(await spoofedSignUps(list.app, { socket: '10.0.0.6', realClient: '198.51.100.8' })).toEqual([
      201, 201, 429,
    ]);
    // Not from a trusted proxy: its X-Forwarded-For is ignored altogether.
    expect(await spoofedSignUps(list.app, { socket: '198.51.100.9', realClient: '198.51.100.10' })).toEqual([
      201, 201, 429,
    ]);
  });
});
