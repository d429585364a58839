import { UFS } from '@passada/core/cep';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { FormField, SelectField } from './form-field.tsx';

interface StateFieldProps extends UseFormRegisterReturn {
  error?: string | undefined;
  /** Shown but not changeable (data from the account): a read-only text field, since a select cannot be. */
  readOnly?: boolean;
}

/** "Estado": the address's state (UF), chosen from the 27 or shown read-only; bound with `register`. */
export function StateField({ readOnly, error, ...field }: StateFieldProps) {
  if (readOnly) return <FormField label="Estado" readOnly error={error} {...field} />;
  return (
    <SelectField label="Estado" error={error} {...field}>
      <option value="">Selecione</option>
      {UFS.map((uf) => (
        <option key={uf} value={uf}>
          {uf}
        </option>
      ))}
    </SelectField>
  );
}
