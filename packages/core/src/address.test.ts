import { describe, expect, it } from 'vitest';
import { streetLine } from './address.ts';

describe('streetLine', () => {
  it('writes street, number and complement, leaving out what is empty', () => {
    expect(streetLine({ street: 'Av. Beira Mar', number: '100', complement: 'apto 201' })).toBe(
      'Av. Beira Mar, 100, apto 201',
    );
    expect(streetLine({ street: 'Rua das Flores', number: 'S/N', complement: '' })).toBe(
      'Rua das Flores, S/N',
    );
    // An address kept before the number had its own field: the street line already holds it.
    expect(streetLine({ street: 'Av. Beira Mar, 100' })).toBe('Av. Beira Mar, 100');
  });
});
