import { rmSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeEvent } from '../test/factories/events.ts';
import { makeUser } from '../test/factories/payments.ts';
import { participant, registrationPix } from '../test/factories/registrations.ts';
import { createTestApp, requirePostgres, type TestApp } from '../test/test-app.ts';
import { untilSeen } from '../test/wait-until.ts';
import { makeDist } from '../test/web-dist.ts';

// Two server processes over one PostgreSQL database, each keeping the pages it sent: a place taken
// through one must reach the other's kept pages through NOTIFY.
requirePostgres();

let dist: string;
let first: TestApp;
let second: TestApp;
beforeAll(async () => {
  dist = makeDist();
  first = await createTestApp({ env: { WEB_DIST: dist } });
  second = await createTestApp({ database: first.database, env: { WEB_DIST: dist } });
});
afterAll(async () => {
  await second.app.close();
  await first.close();
  rmSync(dist, { recursive: true, force: true });
});

it("an event's page kept by one process is drawn again when another takes its last place", async () => {
  const event = await makeEvent(first.app.db, {
    days: [[{ name: '5 km', priceCents: 5000, placesLeft: 1 }]],
  });
  const url = `/eventos/register/${event.id}`;
  const soldOut = async () => {
    const page = await second.app.inject({ method: 'GET', url });
    return page.body.includes('https://schema.org/SoldOut');
  };
  expect(await soldOut()).toBe(false);

  const buyer = await makeUser(first.app);
  const draft = participant(event, [event.days[0]!.categories[0]!.id]);
  expect((await registrationPix(first.app, draft, 50, buyer.headers)).statusCode).toBe(201);
  // The place reaches the other process through NOTIFY, a moment after the commit.
  expect(await untilSeen(soldOut, true)).toBe(true);
});
