import { FISCAL_ORIGIN_LABELS } from '@passada/core/contracts/fiscal';
import { type FormEvent, useState } from 'react';
import {
  FormField,
  FormStatus,
  SelectField,
  secondaryButtonClass,
} from '../../../../components/form-field.tsx';
import { ApiRequestError } from '../../../../lib/api.ts';
import { errorMessage } from '../../shell/utils/error-message.ts';
import { useProductFiscal, useSaveProductFiscal } from '../api/product-fiscal.ts';

/** A product's NCM and origin, which its NF-e lines carry (docs/decisions/0043). */
function Fields({ productId, ncm, origem }: { productId: number; ncm: string; origem: number }) {
  const save = useSaveProductFiscal(productId);
  const [form, setForm] = useState({ ncm, origem: String(origem) });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<{ tone: 'success' | 'error'; message: string } | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    try {
      await save.mutateAsync({ ncm: form.ncm, origem: Number(form.origem) });
      setStatus({ tone: 'success', message: 'Dados fiscais salvos.' });
    } catch (err) {
      if (err instanceof ApiRequestError && err.body?.errors) setErrors(err.body.errors);
      setStatus({ tone: 'error', message: errorMessage(err) });
    }
  };
  return (
    <form
      onSubmit={submit}
      noValidate
      aria-label="Dados fiscais do produto"
      className="mt-6 grid max-w-2xl gap-3"
    >
      <h2 className="text-lg font-semibold">Dados fiscais</h2>
      <div className="grid gap-3 md:grid-cols-2">
        <FormField
          label="NCM"
          placeholder="6109.10.00"
          value={form.ncm}
          onChange={(e) => setForm((f) => ({ ...f, ncm: e.target.value }))}
          error={errors.ncm}
        />
        <SelectField
          label="Origem da mercadoria"
          value={form.origem}
          onChange={(e) => setForm((f) => ({ ...f, origem: e.target.value }))}
          error={errors.origem}
        >
          {FISCAL_ORIGIN_LABELS.map((label, i) => (
            <option key={label} value={i}>
              {label}
            </option>
          ))}
        </SelectField>
      </div>
      {status ? <FormStatus tone={status.tone} message={status.message} /> : null}
      <button
        type="submit"
        className={`${secondaryButtonClass} justify-self-start`}
        disabled={save.isPending}
      >
        Salvar dados fiscais
      </button>
    </form>
  );
}

export function ProductFiscal({ productId }: { productId: number }) {
  const fiscal = useProductFiscal(productId);
  if (fiscal.isPending) return null;
  return (
    <Fields
      key={fiscal.data ? `${fiscal.data.ncm}-${fiscal.data.origem}` : 'novo'}
      productId={productId}
      ncm={fiscal.data?.ncm ?? ''}
      origem={fiscal.data?.origem ?? 0}
    />
  );
}
