import { Writable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app.ts';

describe('request logging', () => {
  let t: TestApp | undefined;
  afterEach(() => t?.close());

  async function appLoggingAt(level: string) {
    const lines: string[] = [];
    t = await createTestApp({
      logger: true,
      logStream: new Writable({
        write(chunk, _enc, done) {
          lines.push(String(chunk));
          done();
        },
      }),
      env: { LOG_LEVEL: level },
    });
    return { app: t.app, lines };
  }

  it('writes no line per request at info', async () => {
    const { app, lines } = await appLoggingAt('info');
    expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    expect(lines.join('')).not.toMatch(/incoming request|request completed/);
  });

  it('makes no logger for a request that writes no line', async () => {
    const { app } = await appLoggingAt('info');
    const child = vi.spyOn(app.log, 'child');
    expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    expect(child).not.toHaveBeenCalled();
  });

  it('writes the request and its outcome at debug', async () => {
    const { app, lines } = await appLoggingAt('debug');
    const child = vi.spyOn(app.log, 'child');
    await app.inject({ method: 'GET', url: '/api/health' });
    expect(child).toHaveBeenCalledTimes(1);
    const logged = lines.join('');
    expect(logged).toContain('incoming request');
    expect(logged).toContain('request completed');
    expect(logged).toContain('/api/health');
    // The request's logger is made when it first logs, with the request's id in every line.
    const entries = logged
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const ofRequest = entries.filter((line) => /incoming request|request completed/.test(line.msg));
    expect(ofRequest).toHaveLength(2);
    expect(ofRequest.map((line) => line.reqId)).toEqual([ofRequest[0].reqId, ofRequest[0].reqId]);
    expect(ofRequest[0].reqId).toMatch(/^req-/);
  });
});
