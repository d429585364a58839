/**
 * Keys whose values identify a person or a card in Efí's answers (API Pix and the charges API). The
 * payment event log keeps what happened to the money, not who paid it.
 */
const PERSONAL_KEYS = new Set(
  [
    'cpf',
    'cnpj',
    'nome',
    'name',
    'email',
    'phone_number',
    'telefone',
    'birth',
    'devedor',
    'pagador',
    'recebedor',
    'customer',
    'payment_token',
    'card_mask',
    'billing_address',
    'address',
    'endereco',
    'infoPagador',
    'infoAdicionais',
    'gnExtras',
  ].map((k) => k.toLowerCase()),
);

/** A copy of a provider payload without personal data, at any depth. */
export function redactProviderPayload(raw: unknown): unknown {
  if (Array.isArray(raw)) return raw.map(redactProviderPayload);
  if (typeof raw !== 'object' || raw === null) return raw;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (!PERSONAL_KEYS.has(key.toLowerCase())) out[key] = redactProviderPayload(value);
  }
  return out;
}
