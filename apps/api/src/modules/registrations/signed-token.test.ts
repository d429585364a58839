import { describe, expect, it } from 'vitest';
import { readCheckinTicket } from './checkin-token.ts';
import { participantLinkToken } from './participant-link.ts';
import { waitlistToken } from './registration-waitlist.ts';
import { mac128, macMatches, sameText } from './signed-token.ts';

const SECRET = 'segredo-de-teste-com-32-caracteres!!';

describe('signed texts of a registration', () => {
  // Written down from the signatures the shop sent before the three schemes shared one helper: a link
  // or ticket already in someone's inbox must keep its meaning.
  it('signs the participant link, the waitlist link and the kit ticket with the same bytes as before', () => {
    expect(
      participantLinkToken(SECRET, {
        registrationId: 42,
        expiresAt: new Date('2027-01-10T12:00:00Z'),
        nonce: 'abc123',
      }),
    ).toBe('42-1799582400-4-naquK0aW3m37OrzJT2Fg');
    expect(waitlistToken(SECRET, { id: 7, linkNonce: '0123456789abcdef0123456789abcdef' })).toBe(
      '7-0123456789abcdef0123456789abcdef-zqVAxTjzw21lmloqjLhJnw',
    );
    expect(readCheckinTicket(SECRET, 'PASSADA-KIT:42.3.noncenoncenonce1.yTnnA2m1NdGtvbKh8R1Ekg').kind).toBe(
      'valid',
    );
  });

  it('refuses a signature with one changed byte or bit, another length or another secret', () => {
    const good = mac128(SECRET, 'waitlist.7.x');
    expect(macMatches(good.toString('base64url'), good)).toBe(true);
    const changed = Buffer.from(good);
    changed[15] = changed[15]! ^ 1;
    expect(macMatches(changed.toString('base64url'), good)).toBe(false);
    expect(macMatches(good.subarray(0, 15).toString('base64url'), good)).toBe(false);
    expect(macMatches(mac128(`${SECRET}?`, 'waitlist.7.x').toString('base64url'), good)).toBe(false);
    // The last character's spare bits changed: the same 16 bytes decoded, yet not the text signed.
    expect(readCheckinTicket(SECRET, 'PASSADA-KIT:42.3.noncenoncenonce1.yTnnA2m1NdGtvbKh8R1Ekh').kind).toBe(
      'forged',
    );
    expect(readCheckinTicket(SECRET, 'PASSADA-KIT:42.3.noncenoncenonce1.zTnnA2m1NdGtvbKh8R1Ekg').kind).toBe(
      'forged',
    );
  });

  it('compares nonces whole', () => {
    expect(sameText('abc', 'abc')).toBe(true);
    expect(sameText('abc', 'abd')).toBe(false);
    expect(sameText('abc', 'abcd')).toBe(false);
  });
});
