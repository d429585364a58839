import type { AuthUser } from '../../plugins/auth.ts';

/**
 * Who acts on a registration: the account that bought it, or the participant through the signed link
 * e-mailed to them (participant-link.ts), which opens that one registration only.
 */
export type Holder = { by: 'comprador'; user: AuthUser } | { by: 'participante'; registrationId: number };
