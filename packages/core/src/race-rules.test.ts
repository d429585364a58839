import { describe, expect, it } from 'vitest';
import {
  ageLimitProblem,
  defaultRegulation,
  defaultTerms,
  describeAgeLimits,
  type RegulationFacts,
  timingAgeGroup,
} from './race-rules.ts';

const adults = { minAge: 18, maxAge: null };
const children = { minAge: 7, maxAge: 12 };
const marathon = { name: '42 km', ...adults };
const kids = { name: 'Kids 1 km', ...children };

describe('describeAgeLimits', () => {
  it('words the limits as race regulations do', () => {
    expect(describeAgeLimits({ minAge: 18, maxAge: null })).toBe('a partir de 18 anos');
    expect(describeAgeLimits({ minAge: 7, maxAge: 12 })).toBe('de 7 a 12 anos');
    expect(describeAgeLimits({ minAge: null, maxAge: 12 })).toBe('até 12 anos');
    expect(describeAgeLimits({ minAge: null, maxAge: null })).toBeNull();
  });
});

describe('ageLimitProblem (age on the race day)', () => {
  it('takes a birthday on the race day itself and refuses one day short', () => {
    expect(ageLimitProblem('2008-12-20', '2026-12-20', marathon)).toBeNull();
    expect(ageLimitProblem('2008-12-21', '2026-12-20', marathon)).toBe(
      'A categoria 42 km é para quem tem a partir de 18 anos no dia da prova (20/12/2026); nessa data o participante terá 17 anos.',
    );
  });

  it('holds both ends of a kids’ race', () => {
    expect(ageLimitProblem('2019-12-20', '2026-12-20', kids)).toBeNull();
    expect(ageLimitProblem('2013-12-21', '2026-12-20', kids)).toBeNull();
    expect(ageLimitProblem('2013-12-20', '2026-12-20', kids)).toContain('terá 13 anos');
    expect(ageLimitProblem('2025-12-20', '2026-12-20', kids)).toContain('terá 1 ano.');
  });

  it('refuses a birth after the race day and lets anyone run a category without limits', () => {
    expect(ageLimitProblem('2027-01-01', '2026-12-20', kids)).toBe('Informe uma data de nascimento válida.');
    expect(
      ageLimitProblem('1930-01-01', '2026-12-20', { name: 'Caminhada', minAge: null, maxAge: null }),
    ).toBeNull();
  });
});

describe('timingAgeGroup', () => {
  it('is the gender’s letter and the five-year band on the race day', () => {
    expect(timingAgeGroup('Masculino', '1990-12-20', '2026-12-20')).toBe('M35-39');
    expect(timingAgeGroup('Feminino', '1986-12-21', '2026-12-20')).toBe('F35-39');
    expect(timingAgeGroup('Feminino', '1986-12-20', '2026-12-20')).toBe('F40-44');
    expect(timingAgeGroup('Masculino', '2018-01-01', '2026-12-20')).toBe('M5-9');
  });
});

describe('default regulation and termo', () => {
  const facts = (categories: RegulationFacts['days'][number]['categories']): RegulationFacts => ({
    name: 'Corrida Kids',
    organizer: 'Clube',
    city: 'Fortaleza',
    state: 'CE',
    place: 'Aterro',
    time: '06:00',
    deadline: '2026-12-15',
    days: [{ date: '2026-12-20', categories }],
  });

  it('says the event’s own ages, never a template’s', () => {
    const text = defaultRegulation(
      facts([{ name: 'Kids 1 km', priceCents: 3990, places: 300, ...children }]),
    );
    expect(text).toContain('devidamente inscritas, de 7 a 12 anos na data da prova');
    expect(text).toMatch(/- 20\/12\/2026, Kids 1 km \(de 7 a 12 anos\): R\$\s39,90 \(300 vagas\)\./);
    expect(text).not.toContain('16 anos');
    expect(
      defaultTerms(facts([{ name: 'Kids 1 km', priceCents: 3990, places: 300, ...children }])),
    ).toContain('responsável legal');
  });

  it('lists each category’s ages when they differ, and no guardian for adults only', () => {
    const f = facts([
      { name: '42 km', priceCents: 21990, places: 800, ...adults },
      { name: '21 km', priceCents: 15990, places: 800, minAge: 18, maxAge: null },
    ]);
    expect(defaultRegulation(f)).toContain('devidamente inscritas, a partir de 18 anos na data da prova.');
    expect(defaultTerms(f)).not.toContain('responsável legal');
    const mixed = facts([
      { name: '42 km', priceCents: 21990, places: 800, ...adults },
      { name: 'Caminhada 3 km', priceCents: 4990, places: 300, minAge: null, maxAge: null },
    ]);
    expect(defaultRegulation(mixed)).toContain('42 km, a partir de 18 anos; Caminhada 3 km, livre');
  });

  it('agrees with any event name and counts one place, one hour, in the singular', () => {
    const f = {
      ...facts([{ name: '10 km', priceCents: 9990, places: 1, minAge: 16, maxAge: null }]),
      name: 'Desafio das Dunas',
    };
    const text = defaultRegulation(f);
    expect(text).toContain('A prova Desafio das Dunas é organizada por Clube');
    expect(text).toContain('(1 vaga).');
    expect(text).not.toMatch(/\bda Desafio|\bA Desafio|com de |com a partir/);
    expect(text).toMatch(/tempo máximo de prova é de \d+ horas?( e \d+ minutos?)?/);
    expect(defaultTerms(f)).toContain('apto(a) a participar da prova Desafio das Dunas e que treinei');
  });
});
