import { describe, expect, it } from 'vitest';
import {
  addBusinessDays,
  addDays,
  addYears,
  dateInTimeZone,
  easterSunday,
  formatIsoDateBR,
  isBusinessDay,
  nonBusinessHolidays,
} from './calendar.ts';

describe('business-day calendar', () => {
  it('computes Easter by the anonymous Gregorian algorithm', () => {
    expect(easterSunday(2000)).toBe('2000-04-23');
    expect(easterSunday(2019)).toBe('2019-04-21');
    expect(easterSunday(2024)).toBe('2024-03-31');
    expect(easterSunday(2025)).toBe('2025-04-20');
    expect(easterSunday(2026)).toBe('2026-04-05');
    expect(easterSunday(2027)).toBe('2027-03-28');
    expect(easterSunday(1818)).toBe('1818-03-22');
    expect(easterSunday(2038)).toBe('2038-04-25');
  });

  it('lists the movable days from Easter and the fixed holidays', () => {
    const h = nonBusinessHolidays(2026);
    expect(h.get('2026-02-16')).toMatch(/Carnaval/);
    expect(h.get('2026-02-17')).toMatch(/Carnaval/);
    expect(h.get('2026-04-03')).toBe('Sexta-feira Santa');
    expect(h.get('2026-06-04')).toBe('Corpus Christi');
    expect(h.get('2026-04-21')).toBe('Tiradentes');
    expect(h.get('2026-11-20')).toMatch(/Consciência Negra/);
    expect(h.size).toBe(13);
    expect(nonBusinessHolidays(2023).has('2023-11-20')).toBe(false);
  });

  it('knows weekends and holidays are not business days', () => {
    expect(isBusinessDay('2026-11-23')).toBe(true); // Monday
    expect(isBusinessDay('2026-11-21')).toBe(false); // Saturday
    expect(isBusinessDay('2026-11-22')).toBe(false); // Sunday
    expect(isBusinessDay('2026-11-20')).toBe(false); // Friday, Consciência Negra
    expect(isBusinessDay('2026-12-25')).toBe(false);
    expect(isBusinessDay('2026-02-17')).toBe(false);
  });

  it('adds business days skipping weekends and holidays', () => {
    expect(addBusinessDays('2026-11-18', 1)).toBe('2026-11-19');
    // Thursday + 1 lands on the 20 November holiday (Friday), then the weekend.
    expect(addBusinessDays('2026-11-19', 1)).toBe('2026-11-23');
    // From Friday before Carnival: Monday and Tuesday do not count.
    expect(addBusinessDays('2026-02-13', 1)).toBe('2026-02-18');
    // Christmas and New Year in one stretch.
    expect(addBusinessDays('2026-12-23', 6)).toBe('2027-01-04');
    expect(addBusinessDays('2026-11-22', 0)).toBe('2026-11-22');
    expect(() => addBusinessDays('2026-11-22', -1)).toThrow();
  });

  it('moves calendar dates across months and years', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(() => addDays('2026-02-30', 1)).toThrow();
  });

  it("takes the store's date in its own time zone", () => {
    // 01:30 UTC is still the previous evening in Fortaleza (UTC−3).
    expect(dateInTimeZone(new Date('2026-11-23T01:30:00Z'), 'America/Fortaleza')).toBe('2026-11-22');
    expect(dateInTimeZone(new Date('2026-11-23T03:00:00Z'), 'America/Fortaleza')).toBe('2026-11-23');
  });
});

describe('formatIsoDateBR', () => {
  it('shows dd/MM/yyyy without going through a time zone', () => {
    expect(formatIsoDateBR('2026-01-01')).toBe('01/01/2026');
    expect(formatIsoDateBR('2026-12-31')).toBe('31/12/2026');
  });
});

describe('addYears', () => {
  it('keeps the day and month; 29 February becomes 28 in a common year', () => {
    expect(addYears('2026-12-20', 1)).toBe('2027-12-20');
    expect(addYears('2028-02-29', 1)).toBe('2029-02-28');
    expect(addYears('2027-02-28', 1)).toBe('2028-02-28');
  });
});
