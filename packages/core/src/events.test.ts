import { describe, expect, it } from 'vitest';
import {
  ageGroup,
  ageOn,
  courseTimeLimitMinutes,
  describeLot,
  formatEventDates,
  formatRegistrationPrice,
  isRegistrationOpen,
  isSenior,
  lotPrice,
  type PriceLot,
  publicPlacesLeft,
  raceProgramme,
  registrationPrice,
  registrationStartFromSearch,
  registrationStartToSearch,
  registrationTotal,
} from './events.ts';

describe('isSenior (Estatuto do Idoso, age on the event day)', () => {
  it('counts the 60th birthday on the event day as 60', () => {
    expect(isSenior('1966-12-05', '2026-12-05')).toBe(true);
  });

  it('is not yet a senior the day before the 60th birthday', () => {
    expect(isSenior('1966-12-06', '2026-12-05')).toBe(false);
    expect(ageOn('1966-12-06', '2026-12-05')).toBe(59);
  });

  it('takes a birthday later in the year into account', () => {
    expect(ageOn('1960-03-10', '2026-03-09')).toBe(65);
    expect(ageOn('1960-03-10', '2026-03-10')).toBe(66);
  });

  it('counts a 29 February birthday on 1 March in a common year', () => {
    expect(isSenior('1968-02-29', '2028-02-28')).toBe(false);
    expect(isSenior('1968-02-29', '2028-02-29')).toBe(true);
    expect(ageOn('1964-02-29', '2023-02-28')).toBe(58);
    expect(ageOn('1964-02-29', '2023-03-01')).toBe(59);
  });

  it('rejects malformed dates', () => {
    expect(() => isSenior('05/12/1966', '2026-12-05')).toThrow('data inválida');
  });
});

describe('registrationPrice', () => {
  it('halves the price for a senior', () => {
    expect(registrationPrice(12000, '1950-01-01', '2026-12-05')).toBe(6000);
  });

  it('rounds an odd centavo in the senior’s favour', () => {
    expect(registrationPrice(7990, '1950-01-01', '2026-12-05')).toBe(3995);
    expect(registrationPrice(9999, '1950-01-01', '2026-12-05')).toBe(4999);
    // Half of one centavo is nothing to pay: the free path (docs/decisions/0028).
    expect(registrationPrice(1, '1950-01-01', '2026-12-05')).toBe(0);
    expect(registrationPrice(0, '1950-01-01', '2026-12-05')).toBe(0);
  });

  it('reads a free price as "Gratuita"', () => {
    expect(formatRegistrationPrice(0)).toBe('Gratuita');
    expect(formatRegistrationPrice(4990)).toBe('R$\u00a049,90');
  });

  it('keeps the full price for someone under 60', () => {
    expect(registrationPrice(12000, '1990-07-20', '2026-12-05')).toBe(12000);
  });

  it('prices each day of a multi-day event on that day’s date', () => {
    // Turns 60 on the second day: full price on day one, half on day two.
    const total = registrationTotal(
      [
        { priceCents: 10000, date: '2026-12-05' },
        { priceCents: 8000, date: '2026-12-06' },
      ],
      '1966-12-06',
    );
    expect(total).toBe(10000 + 4000);
  });
});

describe('isRegistrationOpen (deadline day in America/Fortaleza)', () => {
  it('is open at 23:30 local time on the deadline day, already the next day in UTC', () => {
    // 23:30 in Fortaleza (UTC−3) is 02:30 UTC of the following day.
    const now = new Date('2026-12-02T02:30:00Z');
    expect(isRegistrationOpen('2026-12-01', now)).toBe(true);
  });

  it('closes at local midnight after the deadline day', () => {
    expect(isRegistrationOpen('2026-12-01', new Date('2026-12-02T03:00:00Z'))).toBe(false);
  });

  it('is open before the deadline day', () => {
    expect(isRegistrationOpen('2026-12-01', new Date('2026-11-20T12:00:00Z'))).toBe(true);
  });
});

describe('registration hand-over in the query string', () => {
  it('round-trips paraMim, eventoId and the category ids', () => {
    const search = registrationStartToSearch({ paraMim: false, eventoId: 7, categorias: [12, 15] });
    expect(search).toBe('paraMim=false&eventoId=7&categorias=12%2C15');
    expect(registrationStartFromSearch(`?${search}`)).toEqual({
      paraMim: false,
      eventoId: 7,
      categorias: [12, 15],
    });
  });

  it('answers null for a missing or malformed hand-over', () => {
    expect(registrationStartFromSearch('')).toBeNull();
    expect(registrationStartFromSearch('paraMim=sim&eventoId=7&categorias=1')).toBeNull();
    expect(registrationStartFromSearch('paraMim=true&eventoId=0&categorias=1')).toBeNull();
    expect(registrationStartFromSearch('paraMim=true&eventoId=7&categorias=')).toBeNull();
    expect(registrationStartFromSearch('paraMim=true&eventoId=7&categorias=1,x')).toBeNull();
  });
});

describe('formatEventDates', () => {
  it('shows one date for a one-day event and a range for a multi-day one', () => {
    expect(formatEventDates('2026-12-05', '2026-12-05')).toBe('05/12/2026');
    expect(formatEventDates('2026-12-05', '2026-12-06')).toBe('05/12/2026 a 06/12/2026');
  });
});

describe('raceProgramme', () => {
  it('keeps the usual programme for a 06:00 start of up to 10 km', () => {
    expect(raceProgramme('06:00', ['5 km', '10 km'])).toEqual([
      ['Concentração', '5:15'],
      ['Aquecimento', '5:35'],
      ['Largada', '6:00'],
      ['Premiação', '7:15'],
      ['Encerramento', '8:00'],
    ]);
  });

  it('gives the awards only after a longer course closes', () => {
    expect(courseTimeLimitMinutes(['21 km', 'Caminhada 3 km'])).toBe(180);
    expect(raceProgramme('05:00', ['42 km', '21 km'])[3]).toEqual(['Premiação', '11:00']);
    expect(raceProgramme('05:30', ['5 km'])[0]).toEqual(['Concentração', '4:45']);
  });
});

describe('lotPrice (lotes by date or by places sold)', () => {
  const lots: PriceLot[] = [
    { name: '1º lote', priceCents: 7990, untilDate: '2027-01-10', untilCount: 300 },
    { name: '2º lote', priceCents: 8990, untilDate: '2027-02-10', untilCount: null },
  ];

  it('is the first lot on its last day and below its count, with the next price', () => {
    expect(lotPrice(lots, 9990, '2027-01-10', 299)).toEqual({
      current: lots[0],
      priceCents: 7990,
      next: { name: '2º lote', priceCents: 8990 },
    });
  });

  it('moves to the next lot the day after, or when the count is reached', () => {
    expect(lotPrice(lots, 9990, '2027-01-11', 0).current?.name).toBe('2º lote');
    expect(lotPrice(lots, 9990, '2027-01-01', 300).current?.name).toBe('2º lote');
  });

  it('falls back to the category price after the last lot, which is its next price', () => {
    expect(lotPrice(lots, 9990, '2027-02-01', 0).next).toEqual({ name: null, priceCents: 9990 });
    expect(lotPrice(lots, 9990, '2027-02-11', 0)).toEqual({ current: null, priceCents: 9990, next: null });
    expect(lotPrice([], 9990, '2027-02-11', 0).priceCents).toBe(9990);
  });

  it('describes a lot as runners read it', () => {
    expect(describeLot(lots[0] as PriceLot)).toBe('1º lote até 10/01 ou 300 inscrições');
  });
});

describe('ageGroup (faixa etária on the event day)', () => {
  it('bands by five years, from the age on the event day', () => {
    expect(ageGroup('2010-01-01', '2026-12-05')).toBe('Até 19 anos');
    expect(ageGroup('1996-12-05', '2026-12-05')).toBe('30 a 34 anos');
    expect(ageGroup('1996-12-06', '2026-12-05')).toBe('25 a 29 anos');
    expect(ageGroup('1966-12-05', '2026-12-05')).toBe('60 a 64 anos');
    expect(ageGroup('1940-01-01', '2026-12-05')).toBe('80 anos ou mais');
  });
});

describe('publicPlacesLeft: the one figure of places left', () => {
  it('is nothing while someone waits, else what is left less what is held for someone', () => {
    expect(publicPlacesLeft(5, undefined)).toBe(5);
    expect(publicPlacesLeft(5, { waiting: 0, offers: 2 })).toBe(3);
    expect(publicPlacesLeft(5, { waiting: 1, offers: 0 })).toBe(0);
    expect(publicPlacesLeft(1, { waiting: 0, offers: 3 })).toBe(0);
  });
});
