import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import auth from './auth.ts';
import rateLimit from './rate-limit.ts';

describe('rate limits', () => {
  it('refuses a route whose limits share a name when the route is added, not on its first request', async () => {
    const app = Fastify();
    await app.register(auth);
    await app.register(rateLimit);
    // One statement counts all of a route's limits, and it may touch each counter only once.
    expect(() =>
      app.get(
        '/twice',
        {
          config: {
            limit: [
              { name: 'same', max: 5, windowSeconds: 60 },
              { name: 'same', max: 2, windowSeconds: 60, per: 'account' },
            ],
          },
        },
        async () => 'ok',
      ),
    ).toThrow('/twice: two rate limits share a name (same, same)');
    await app.close();
  });
});
