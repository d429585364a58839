import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { FormField, FormStatus, secondaryButtonClass } from '../../../components/form-field.tsx';
import { requestStockAlert } from '../api/products.ts';

/**
 * "Avise-me quando chegar" under a sold-out colour and size (docs/decisions/0069): an e-mail, once, when
 * the units come back; the first to ask are told first. The address serves that one message.
 */
export function StockAlert({
  productId,
  color,
  size,
}: {
  productId: number;
  color: { id: number; name: string };
  size: { id: number; name: string };
}) {
  const [email, setEmail] = useState('');
  const ask = useMutation({
    mutationFn: () => requestStockAlert(productId, { cor: color.id, tamanho: size.id, email }),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    ask.mutate();
  };
  if (ask.isSuccess) return <FormStatus message={ask.data.mensagem} tone="success" />;
  return (
    <form
      onSubmit={submit}
      aria-label={`Avise-me quando ${color.name}, ${size.name} chegar`}
      className="rounded-lg bg-stone-100 p-4 dark:bg-stone-800"
    >
      <p className="mb-2 font-semibold">
        {color.name}, tamanho {size.name}: esgotado. Quer um aviso quando chegar?
      </p>
      <FormField
        label="Seu e-mail"
        type="email"
        autoComplete="email"
        required
        value={email}
        onChange={(e) => setEmail(e.target.value)}
      />
      <p className="mt-1 text-sm text-stone-700 dark:text-stone-300">
        Usamos o e-mail só para este aviso, enviado uma vez.
      </p>
      <button type="submit" className={`${secondaryButtonClass} mt-2`} disabled={ask.isPending}>
        Avise-me quando chegar
      </button>
      <FormStatus message={ask.error ? ask.error.message : null} tone="error" />
    </form>
  );
}
