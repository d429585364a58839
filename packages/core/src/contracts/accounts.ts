import { isUF, normalizeCep, stateForCep, UFS } from '../cep.ts';
import { isValidPhone, normalizePhone } from '../phone.ts';
import { z } from '../zod.ts';

/**
 * Accounts on the wire (spec §3 and §7): sign-up, login, profile, password recovery, addresses and
 * CEP lookup. Messages are what the person reads, in Portuguese. The list of common passwords is
 * checked on the server only (it is too big for the browser bundle).
 */

/** OWASP ASVS 2.1: at least 8 characters, long passphrases allowed, no composition rules. */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

export const PasswordSchema = z
  .string({ error: 'Informe a senha.' })
  .min(PASSWORD_MIN, `A senha deve ter pelo menos ${PASSWORD_MIN} caracteres.`)
  .max(PASSWORD_MAX, `A senha deve ter no máximo ${PASSWORD_MAX} caracteres.`);

/** No "@" so that the login field (username or e-mail) is never ambiguous. */
export const UsernameSchema = z
  .string({ error: 'Informe o nome de usuário.' })
  .trim()
  .min(1, 'Informe o nome de usuário.')
  .max(30, 'O nome de usuário deve ter no máximo 30 caracteres.')
  .regex(/^[A-Za-z0-9_.-]+$/, 'Use apenas letras, números, ponto, hífen e sublinhado.');

export const EmailSchema = z
  .string({ error: 'Informe o e-mail.' })
  .trim()
  .toLowerCase()
  .min(1, 'Informe o e-mail.')
  .max(254, 'E-mail longo demais.')
  .pipe(z.email('Digite um e-mail válido.'));

export const FullNameSchema = z
  .string({ error: 'Informe o nome completo.' })
  .trim()
  .min(1, 'Informe o nome completo.')
  .max(150, 'O nome deve ter no máximo 150 caracteres.');

export const SignUpRequestSchema = z.object({
  username: UsernameSchema,
  email: EmailSchema,
  full_name: FullNameSchema,
  password: PasswordSchema,
});
export type SignUpRequest = z.infer<typeof SignUpRequestSchema>;

export const ProfileSchema = z.object({
  username: z.string(),
  email: z.string(),
  full_name: z.string(),
  /**
   * Whether the owner opened the link sent to `email` (docs/decisions/0057): until then, what was given
   * with this address without an account is neither shown in nor erased with the account.
   */
  email_confirmado: z.boolean(),
});
export type Profile = z.infer<typeof ProfileSchema>;

/** `username` may be the username or the e-mail. */
export const LoginRequestSchema = z.object({
  username: z.string().trim().min(1, 'Informe o usuário ou e-mail.').max(254),
  password: z.string().min(1, 'Informe a senha.').max(1024),
});
export type LoginRequest = z.infer<typeof LoginRequestSchema>;

/** The one-time link e-mailed when a sign-in with the right password was blocked (`/login/acesso?token=`). */
export const LoginLinkRequestSchema = z.object({
  token: z.string().min(1, 'Link de acesso inválido ou expirado.').max(200),
});
export type LoginLinkRequest = z.infer<typeof LoginLinkRequestSchema>;

export const TokenResponseSchema = z.object({ token: z.string() });
export type TokenResponse = z.infer<typeof TokenResponseSchema>;

export const MessageResponseSchema = z.object({ detail: z.string() });
export type MessageResponse = z.infer<typeof MessageResponseSchema>;

export const UpdateProfileRequestSchema = z
  .object({
    full_name: FullNameSchema.optional(),
    email: EmailSchema.optional(),
    /** Needed when `email` changes: a stolen session alone cannot redirect the account's mail. */
    current_password: z.string().max(1024).optional(),
  })
  .refine((v) => v.full_name !== undefined || v.email !== undefined, 'Nada para alterar.');
export type UpdateProfileRequest = z.infer<typeof UpdateProfileRequestSchema>;

const MISMATCH = 'As senhas não coincidem.';

export const ChangePasswordRequestSchema = z
  .object({
    current_password: z.string().min(1, 'Informe a senha atual.').max(1024),
    new_password: PasswordSchema,
    new_password_confirm: z.string(),
  })
  .refine((v) => v.new_password === v.new_password_confirm, {
    message: MISMATCH,
    path: ['new_password_confirm'],
  });
export type ChangePasswordRequest = z.infer<typeof ChangePasswordRequestSchema>;

export const DeleteAccountRequestSchema = z.object({
  password: z.string().min(1, 'Informe a senha.').max(1024),
});
export type DeleteAccountRequest = z.infer<typeof DeleteAccountRequestSchema>;

export const PasswordResetRequestSchema = z.object({ email: EmailSchema });
export type PasswordResetRequest = z.infer<typeof PasswordResetRequestSchema>;

export const PasswordResetConfirmSchema = z
  .object({
    token: z.string().min(1, 'Link inválido ou expirado.').max(200),
    password: PasswordSchema,
    password_confirm: z.string(),
  })
  .refine((v) => v.password === v.password_confirm, { message: MISMATCH, path: ['password_confirm'] });
export type PasswordResetConfirm = z.infer<typeof PasswordResetConfirmSchema>;

/** A CEP typed with or without punctuation, kept as 8 digits. */
export const CepSchema = z
  .string({ error: 'Digite um CEP válido!' })
  .transform(normalizeCep)
  .pipe(z.string().length(8, 'Digite um CEP válido!'));

/** A required text field with its own message when empty, and a message of its own when too long. */
export const requiredText = (message: string, max = 150) =>
  z.string({ error: message }).trim().min(1, message).max(max, `Use no máximo ${max} caracteres.`);

/** One of the 27 UFs, typed in any case. */
export const UfSchema = z
  .string({ error: 'Escolha o estado.' })
  .trim()
  .toUpperCase()
  .refine(isUF, 'Escolha um estado válido.');

/** A Brazilian phone with a real DDD, kept as digits. */
export const PhoneSchema = z
  .string({ error: 'Informe o telefone.' })
  .refine(isValidPhone, 'Digite um telefone válido com DDD.')
  .transform(normalizePhone);

/** The CEP exists and lies in the chosen state (addresses and participants share the rule). */
export function cepMatchesState(v: { zip_code: string; state: string }, ctx: z.RefinementCtx): void {
  const uf = stateForCep(v.zip_code);
  if (uf === null) {
    ctx.addIssue({ code: 'custom', path: ['zip_code'], message: 'Digite um CEP válido!' });
  } else if (isUF(v.state) && uf !== v.state) {
    ctx.addIssue({
      code: 'custom',
      path: ['zip_code'],
      message: 'Este CEP não pertence ao estado escolhido.',
    });
  }
}

/**
 * The fields of a place (CEP, state, city, district, street, number, complement), as every address form
 * asks them: a person's address and a company's on a nota alike. Checked with `cepMatchesState`.
 */
export function addressFields() {
  return {
    zip_code: CepSchema,
    state: UfSchema,
    city: requiredText('Informe a cidade.'),
    neighborhood: requiredText('Informe o bairro.'),
    street: requiredText('Informe a rua.', 200),
    number: requiredText('Informe o número (ou S/N, se não houver).', 20),
    complement: z.string().trim().max(60, 'Use no máximo 60 caracteres.').default(''),
  };
}

/**
 * The address form (spec §3: full_name, zip_code, state, city, neighborhood, street, phone, is_primary), with
 * the number and complement apart, as the Correios and every Brazilian form ask.
 */
export const AddressInputSchema = z
  .object({
    full_name: requiredText('Informe o nome completo.'),
    ...addressFields(),
    phone: PhoneSchema,
    is_primary: z.boolean().default(false),
  })
  .superRefine(cepMatchesState);
export type AddressInput = z.input<typeof AddressInputSchema>;
export type AddressData = z.output<typeof AddressInputSchema>;

export const AddressSchema = z.object({
  id: z.number().int(),
  /** The owner's user id. */
  user: z.number().int(),
  full_name: z.string(),
  zip_code: z.string(),
  state: z.enum(UFS),
  city: z.string(),
  neighborhood: z.string(),
  street: z.string(),
  number: z.string(),
  complement: z.string(),
  /** Formatted "(85) 99999-9999". */
  phone: z.string(),
  is_primary: z.boolean(),
});
export type Address = z.infer<typeof AddressSchema>;

/** `GET /api/cep/{cep}/`: the state always (offline table); the rest when a lookup provider knows it. */
export const CepLookupSchema = z.object({
  cep: z.string(),
  state: z.enum(UFS),
  city: z.string().optional(),
  street: z.string().optional(),
  neighborhood: z.string().optional(),
});
export type CepLookup = z.infer<typeof CepLookupSchema>;

/** The token of the link that confirms an account's e-mail (`/login/confirmar-email?token=…`). */
export const EmailConfirmRequestSchema = z.object({
  token: z.string().min(1, 'Link de confirmação inválido.').max(200, 'Link de confirmação inválido.'),
});
export type EmailConfirmRequest = z.infer<typeof EmailConfirmRequestSchema>;
