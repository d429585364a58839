import { randomBytes } from 'node:crypto';

/**
 * A new team link's secret (a claim link's, decision 0073; an invitation's, 0075): 128 random bits in
 * base64url, 22 characters, as the contracts' token schemas check them.
 */
export const newTeamLinkToken = (): string => randomBytes(16).toString('base64url');
