import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * What the three signed texts of a registration share (the kit-pickup ticket, docs/decisions/0026; the
 * participant's link, 0041; the waitlist offer's link, 0042): an HMAC-SHA256 with CHECKIN_TOKEN_SECRET
 * cut to 128 bits, so a code stays small enough for a phone camera or a short link, and comparisons in
 * constant time. Each scheme signs a message of its own shape, so one's signature never passes for
 * another's; the message bytes are part of every link and ticket already sent, so they never change.
 */
export function mac128(secret: string, message: string): Buffer {
  return createHmac('sha256', secret).update(message).digest().subarray(0, 16);
}

/**
 * A signature read from a text (base64url) against the expected one, in constant time. The text is
 * compared, not its decoding: 22 characters carry 132 bits for 128, so sixteen texts decode to the same
 * bytes, and only the one the shop wrote is taken.
 */
export function macMatches(givenBase64Url: string, expected: Buffer): boolean {
  // Constant time: how long the comparison takes must not tell how much of a forged signature was right.
  return sameText(givenBase64Url, expected.toString('base64url'));
}

/** Two texts (nonces) compared in constant time. */
export function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
