import { describe, expect, it } from 'vitest';
import {
  OPERATION_INDICATOR_BY_NBS,
  REGISTRATION_IBS_CBS,
  registrationOperationIndicator,
} from './reform-rules.ts';

describe('the registration nota’s cIndOp, by NBS (Anexo VIII as data)', () => {
  it('keeps the Anexo VII reading, 030102, for an NBS the table has no row for, and for none', () => {
    expect(REGISTRATION_IBS_CBS.operationIndicator).toBe('030102');
    expect(registrationOperationIndicator('')).toBe('030102');
    expect(registrationOperationIndicator('1.2603.11.00')).toBe(
      OPERATION_INDICATOR_BY_NBS['126031100'] ?? '030102',
    );
  });

  it('takes the NBS’s row where the table has one, read with or without the dots', () => {
    const table = { '126031100': '040101' };
    expect(registrationOperationIndicator('126031100', table)).toBe('040101');
    expect(registrationOperationIndicator('1.2603.11.00', table)).toBe('040101');
    expect(registrationOperationIndicator('126031200', table)).toBe('030102');
  });

  it('writes only six-digit codes', () => {
    for (const code of Object.values(OPERATION_INDICATOR_BY_NBS)) expect(code).toMatch(/^\d{6}$/);
  });
});
