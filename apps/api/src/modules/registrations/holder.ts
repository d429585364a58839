import type { AuthUser } from '../../plugins/auth.ts';

/**
 * Who acts on a registration: the account that bought it, or the participant through the signed link
 * e-mailed to them (participant-link.ts), which opens that one registration only.
 */
export type Holder = { by: 'comprador'; user: AuthUser } | { by: 'participante'; registrationId: number };

/** A charge's billing address from a registration's (or a participant's) address: no number is kept. */
export const billingAddressOf = (a: {
  street: string;
  neighborhood: string;
  zipCode: string;
  city: string;
  state: string;
}) => ({
  street: a.street,
  number: 'S/N',
  neighborhood: a.neighborhood,
  zipcode: a.zipCode,
  city: a.city,
  state: a.state,
});
