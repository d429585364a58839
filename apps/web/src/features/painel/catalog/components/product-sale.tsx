import { formatStoreDateTime } from '@passada/core/calendar';
import type { PainelProduct } from '@passada/core/contracts/painel';
import { formatBRL, reaisToCents } from '@passada/core/money';
import { type FormEvent, useState } from 'react';
import {
  FormField,
  FormStatus,
  primaryButtonClass,
  secondaryButtonClass,
} from '../../../../components/form-field.tsx';
import { errorMessage, fieldErrors } from '../../shell/utils/error-message.ts';
import { fromLocal, toLocal } from '../../shell/utils/store-time.ts';
import { useSaveSale } from '../api/products.ts';

const brl = (reais: number) => formatBRL(reaisToCents(reais));

/**
 * The product's sale (decision 0082): "de R$ 129,90 por R$ 99,90" from a start to an end, in the
 * store's time. The shop changes the price by itself at both; saved with the product's version, so a
 * colleague's save in between answers "recarregue" instead of being written over.
 */
export function ProductSale({
  product,
  onSaved,
}: {
  product: PainelProduct;
  /** Gets the answer, so the page's form keeps the new version. */
  onSaved?: (saved: PainelProduct) => void;
}) {
  const save = useSaveSale(product.id);
  const sale = product.promocao;
  const [price, setPrice] = useState(sale ? String(sale.preco).replace('.', ',') : '');
  const [start, setStart] = useState(sale ? toLocal(sale.inicio) : '');
  const [end, setEnd] = useState(sale ? toLocal(sale.fim) : '');
  // The colours × sizes the sale is limited to, as "cor/tamanho" keys; none ticked: every one.
  const comboKey = (c: { cor_id: number; tamanho_id: number }) => `${c.cor_id}/${c.tamanho_id}`;
  const [only, setOnly] = useState<Set<string>>(new Set((sale?.combinacoes ?? []).map(comboKey)));
  const combos = product.stock.map((s) => ({
    cor_id: s.color.id,
    tamanho_id: s.size.id,
    label: `${s.color.name} ${s.size.name}`,
  }));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<{ tone: 'success' | 'error'; message: string } | null>(null);

  const send = async (
    promocao: {
      preco: number;
      inicio: string;
      fim: string;
      combinacoes: Array<{ cor_id: number; tamanho_id: number }>;
    } | null,
    done: string,
  ) => {
    setErrors({});
    try {
      onSaved?.(await save.mutateAsync({ versao: product.versao, promocao }));
      setStatus({ tone: 'success', message: done });
    } catch (error) {
      const fields = fieldErrors(error);
      setErrors({
        preco: fields['promocao.preco'] ?? fields.preco ?? '',
        inicio: fields['promocao.inicio'] ?? '',
        fim: fields['promocao.fim'] ?? fields.fim ?? '',
      });
      setStatus({ tone: 'error', message: errorMessage(error) });
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void send(
      {
        preco: Number(price.replace(/\./g, '').replace(',', '.')),
        inicio: fromLocal(start),
        fim: fromLocal(end),
        combinacoes: combos
          .filter((c) => only.has(comboKey(c)))
          .map(({ cor_id, tamanho_id }) => ({ cor_id, tamanho_id })),
      },
      'Promoção salva.',
    );
  };

  /** ", em Coral M e Coral G" when the sale is limited, by the combinations' names. */
  const saleScope = (chosen: Array<{ cor_id: number; tamanho_id: number }>) => {
    const names = chosen.flatMap((c) => combos.find((k) => comboKey(k) === comboKey(c))?.label ?? []);
    return names.length ? `, só em ${names.join(', ')}` : '';
  };

  return (
    <section aria-labelledby="promocao-titulo" className="mt-8">
      <h2 id="promocao-titulo" className="mb-1 text-xl font-semibold">
        Preço promocional
      </h2>
      <p className="mb-2 text-sm text-stone-600 dark:text-stone-400">
        {sale
          ? `De ${brl(product.price)} por ${brl(sale.preco)}${saleScope(sale.combinacoes)}, de ${formatStoreDateTime(new Date(sale.inicio))} até ${formatStoreDateTime(new Date(sale.fim))} (horário de Fortaleza). A loja muda o preço sozinha no início e no fim.`
          : `Sem promoção: a loja vende por ${brl(product.price)}.`}
      </p>
      <form
        onSubmit={submit}
        noValidate
        aria-label="Preço promocional"
        className="flex flex-wrap items-end gap-3"
      >
        <FormField
          label="Preço promocional (R$)"
          inputMode="decimal"
          value={price}
          error={errors.preco || undefined}
          onChange={(e) => setPrice(e.target.value)}
        />
        <FormField
          label="Início da promoção"
          type="datetime-local"
          value={start}
          error={errors.inicio || undefined}
          onChange={(e) => setStart(e.target.value)}
        />
        <FormField
          label="Fim da promoção"
          type="datetime-local"
          value={end}
          error={errors.fim || undefined}
          onChange={(e) => setEnd(e.target.value)}
        />
        {combos.length > 1 ? (
          <fieldset className="basis-full">
            <legend className="text-sm font-medium">
              Só nestas cores e tamanhos (nenhuma marcada: todas)
            </legend>
            <div className="flex flex-wrap gap-x-4 gap-y-1">
              {combos.map((c) => (
                <label key={comboKey(c)} className="flex items-center gap-1 text-sm">
                  <input
                    type="checkbox"
                    checked={only.has(comboKey(c))}
                    onChange={(e) =>
                      setOnly((o) => {
                        const next = new Set(o);
                        if (e.target.checked) next.add(comboKey(c));
                        else next.delete(comboKey(c));
                        return next;
                      })
                    }
                  />
                  {c.label}
                </label>
              ))}
            </div>
          </fieldset>
        ) : null}
        <button type="submit" className={primaryButtonClass} disabled={save.isPending}>
          Salvar promoção
        </button>
        {sale ? (
          <button
            type="button"
            className={secondaryButtonClass}
            disabled={save.isPending}
            onClick={() => void send(null, 'Promoção encerrada.')}
          >
            Encerrar promoção
          </button>
        ) : null}
      </form>
      <FormStatus message={status?.message ?? null} tone={status?.tone ?? 'success'} />
    </section>
  );
}
