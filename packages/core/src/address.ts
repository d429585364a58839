/** What a Brazilian address line holds: the street, its number ("S/N" when it has none), a complement. */
export interface StreetParts {
  street: string;
  /** Absent or empty on addresses kept before the number had a field of its own (it is in `street`). */
  number?: string;
  complement?: string;
}

/** "Av. Beira Mar, 100, apto 201": the line a label, an e-mail or a page writes. */
export function streetLine({ street, number, complement }: StreetParts): string {
  return [street, number, complement].filter((part) => part?.trim()).join(', ');
}

/** The value meaning "no number", as the Correios write it. */
export const NO_NUMBER = 'S/N';
