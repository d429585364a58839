import { addDays } from '@passada/core/calendar';
import { courseTimeLimitMinutes } from '@passada/core/events';
import { describeAgeLimits } from '@passada/core/race-rules';
import { describe, expect, it } from 'vitest';
import { planDemoEvents, setPrice } from './events.ts';

const WEEKDAYS = ['domingo', 'segunda', 'terça', 'quarta', 'quinta', 'sexta', 'sábado'];
const weekdayName = (date: string) => WEEKDAYS[new Date(`${date}T12:00:00Z`).getUTCDay()];
const minutesOf = (time: string) => {
  const [h = 0, m = 0] = time.split(':').map(Number);
  return h * 60 + m;
};

// Seeding on each day of one week puts every race start on every possible offset.
const seedDays = Array.from({ length: 7 }, (_, i) => addDays('2026-11-22', i));

describe.each(seedDays)('demo events seeded on %s', (today) => {
  const planned = planDemoEvents(today);

  it('name only weekdays their race days fall on', () => {
    for (const { row, days } of planned) {
      const raceWeekdays = days.map((d) => weekdayName(d.date));
      const text = `${row.description}\n${row.regulation}`.toLocaleLowerCase('pt-BR');
      for (const name of WEEKDAYS) {
        if (new RegExp(`(?<!\\p{L})${name}(?!\\p{L})`, 'u').test(text))
          expect(raceWeekdays, `${row.name}: ${name}`).toContain(name);
      }
    }
  });

  it('race on weekends: one-day races on Sunday, two-day ones on Saturday and Sunday', () => {
    for (const { row, days } of planned) {
      const expected = days.length === 1 ? ['domingo'] : ['sábado', 'domingo'];
      expect(
        days.map((d) => weekdayName(d.date)),
        row.name,
      ).toEqual(expected);
    }
  });

  it('start at an hour the description matches', () => {
    for (const { row, days } of planned) {
      const text = [row.description, ...days.flatMap((d) => d.categories.map((c) => c.name))].join(' ');
      const start = minutesOf(row.time);
      if (/notur|noite/i.test(text)) expect(start, row.name).toBeGreaterThanOrEqual(minutesOf('18:00'));
      if (/amanhecer|sol nascendo|bem cedo/i.test(text))
        expect(start, row.name).toBeLessThan(minutesOf('07:00'));
    }
  });

  it('give out awards only after the longest race of the day has closed', () => {
    for (const { row, days } of planned) {
      const awardsSection = row.regulation.slice(row.regulation.indexOf('6. PREMIAÇÃO'));
      const awards = [...awardsSection.matchAll(/às (\d{1,2}:\d{2})/g)].map((m) => minutesOf(m[1] ?? ''));
      expect(awards.length, row.name).toBe(days.length);
      days.forEach((day, i) => {
        expect(awards[i], `${row.name} ${day.date}`).toBeGreaterThanOrEqual(
          minutesOf(row.time) + courseTimeLimitMinutes(day.categories.map((c) => c.name)),
        );
      });
    }
  });

  it('have regulations and termos that match their own categories and ages', () => {
    for (const { row, days } of planned) {
      for (const c of days.flatMap((d) => d.categories)) {
        const ages = describeAgeLimits(c);
        expect(row.regulation, `${row.name} ${c.name}`).toContain(`${c.name}${ages ? ` (${ages})` : ''}:`);
      }
      const kids = days.some((d) => d.categories.some((c) => /kids/i.test(c.name)));
      if (kids) expect(row.regulation, row.name).toContain('de 5 a 12 anos');
      expect(row.terms, row.name).toContain(row.name);
    }
  });

  it('close registrations before the race, and one event is already closed', () => {
    for (const { row } of planned) expect(row.registrationDeadline < row.startDate, row.name).toBe(true);
    expect(planned.filter((p) => p.row.registrationDeadline < today)).toHaveLength(1);
  });
});

describe('setPrice', () => {
  it('gives lots prices an organiser would set (ending in ,90), never above the computed one', () => {
    expect(setPrice(7990 * 0.8)).toBe(6390);
    expect(setPrice(7990 * 0.9)).toBe(7190);
    expect(setPrice(12990 * 0.8)).toBe(10390);
    for (const cents of [1990, 4990, 8990, 14990, 24990]) {
      for (const share of [0.8, 0.9]) {
        const price = setPrice(cents * share);
        expect(price % 100).toBe(90);
        expect(price).toBeLessThanOrEqual(cents * share);
      }
    }
  });
});
