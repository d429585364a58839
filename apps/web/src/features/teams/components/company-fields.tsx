import { UFS } from '@passada/core/cep';
import { type CompanyTaker, CompanyTakerSchema } from '@passada/core/contracts/teams';
import { FormField, SelectField } from '../../../components/form-field.tsx';
import { cepMask, MaskedField } from '../../../components/masked-field.tsx';

/** The company's fields as typed (strings), before the shared contract checks them. */
export interface CompanyDraft {
  cnpj: string;
  razao_social: string;
  email: string;
  zip_code: string;
  state: string;
  city: string;
  neighborhood: string;
  street: string;
  number: string;
  complement: string;
}

export const EMPTY_COMPANY: CompanyDraft = {
  cnpj: '',
  razao_social: '',
  email: '',
  zip_code: '',
  state: '',
  city: '',
  neighborhood: '',
  street: '',
  number: '',
  complement: '',
};

/**
 * The company checked by the server's own contract: its data, or each field's message (keyed as the
 * fields are named here).
 */
export function checkCompany(
  d: CompanyDraft,
): { ok: true; company: CompanyTaker } | { ok: false; errors: Record<string, string> } {
  const { cnpj, razao_social, email, ...endereco } = d;
  const parsed = CompanyTakerSchema.safeParse({ cnpj, razao_social, email, endereco });
  if (parsed.success) return { ok: true, company: parsed.data };
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const key = String(issue.path.at(-1) ?? '');
    errors[key] ??= issue.message;
  }
  return { ok: false, errors };
}

/**
 * Who takes the NFS-e of a team's places when a company pays them (docs/decisions/0077): CNPJ, legal
 * name, the e-mail the nota goes to and the address printed on it.
 */
export function CompanyFields({
  value,
  errors,
  onChange,
}: {
  value: CompanyDraft;
  errors: Record<string, string>;
  onChange: (next: CompanyDraft) => void;
}) {
  const field = (key: keyof CompanyDraft) => ({
    value: value[key],
    error: errors[key],
    onChange: (e: { target: { value: string } }) => onChange({ ...value, [key]: e.target.value }),
  });
  return (
    <fieldset className="mt-3 grid gap-3 sm:grid-cols-2">
      <legend className="font-medium">Empresa da nota fiscal</legend>
      <FormField label="CNPJ" autoComplete="off" {...field('cnpj')} />
      <FormField label="Razão social" autoComplete="organization" {...field('razao_social')} />
      <FormField label="E-mail para a nota" type="email" autoComplete="email" {...field('email')} />
      <MaskedField mask={cepMask} label="CEP da empresa" autoComplete="postal-code" {...field('zip_code')} />
      <SelectField label="Estado da empresa" {...field('state')}>
        <option value="">Selecione</option>
        {UFS.map((uf) => (
          <option key={uf} value={uf}>
            {uf}
          </option>
        ))}
      </SelectField>
      <FormField label="Cidade da empresa" autoComplete="address-level2" {...field('city')} />
      <FormField label="Bairro" {...field('neighborhood')} />
      <FormField label="Rua" autoComplete="address-line1" {...field('street')} />
      <FormField label="Número" {...field('number')} />
      <FormField label="Complemento (opcional)" {...field('complement')} />
    </fieldset>
  );
}
