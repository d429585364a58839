import { randomUUID } from 'node:crypto';
import { type MyTeam, MyTeamSchema } from '@passada/core/contracts/teams';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { TestUser } from './accounts.ts';
import { type MadeEvent, makeEvent } from './events.ts';
import type { Buyer } from './orders.ts';
import { APPROVED_CARD, cpfFrom, participant, registrationCard, requestAs } from './registrations.ts';

/** 10:00 in Fortaleza on 24 November 2026: the teams' races run on the 28th, registrations until the 27th. */
export const TEAMS_START = new Date('2026-11-24T13:00:00Z');

/** A race of the teams' tests (5 km at R$ 89,90 and 10 km at R$ 109,90) on 28 November 2026. */
export function teamsRace(app: FastifyInstance, name: string): Promise<MadeEvent> {
  return makeEvent(app.db, {
    name,
    today: '2026-11-24',
    startDate: '2026-11-28',
    registrationDeadline: '2026-11-27',
  });
}

/** A team made by `captain` through the API (201), for one event or the season (null). */
export async function makeTeam(
  app: FastifyInstance,
  captain: TestUser,
  nome: string,
  evento: number | null,
): Promise<MyTeam> {
  const res = await requestAs(() => app)('POST', captain, '/api/equipes/', { nome, evento });
  expect(res.statusCode).toBe(201);
  return MyTeamSchema.parse(res.json());
}

/**
 * A registrar of runners in the 10 km paid by `buyer`'s approved card, each with a CPF and e-mail of
 * their own numbered from `firstCpf` (each file its own number); `fields` go over the participant's
 * defaults (a join code, the team's pickup, a name); a birth date of 60 or more pays the half price.
 */
export function teamRegistrar(app: () => FastifyInstance, buyer: () => Buyer, firstCpf: number) {
  let seq = firstCpf;
  return async (event: MadeEvent, fields: Record<string, unknown> = {}) => {
    const cpf = cpfFrom(seq++);
    const draft = participant(event, [event.days[0]!.categories[1]!.id], {
      cpf,
      email: `membro.${cpf}@example.com`,
      ...fields,
    });
    const birth = typeof fields.data_nascimento === 'string' ? fields.data_nascimento : '';
    const res = await registrationCard(app(), {
      number: APPROVED_CARD,
      draft,
      total: birth && birth < '1966-11-28' ? 54.95 : 109.9,
      user: buyer(),
      key: randomUUID(),
    });
    return { res, cpf };
  };
}
