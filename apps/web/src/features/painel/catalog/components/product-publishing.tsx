import { formatStoreDateTime } from '@passada/core/calendar';
import type { PainelProduct } from '@passada/core/contracts/painel';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import {
  FormField,
  FormStatus,
  linkClass,
  primaryButtonClass,
  secondaryButtonClass,
} from '../../../../components/form-field.tsx';
import { errorMessage, fieldErrors } from '../../shell/utils/error-message.ts';
import { fromLocal } from '../../shell/utils/store-time.ts';
import { usePublishProduct } from '../api/products.ts';

const MISSING: Record<PainelProduct['falta_para_vender'][number], string> = {
  foto: 'uma foto pronta',
  estoque: 'estoque em ao menos uma cor e tamanho',
};

/** Where the product stands in the shop, in one sentence. */
function situation(product: PainelProduct): string {
  if (product.rascunho && product.publicar_em) {
    return `Lançamento agendado para ${formatStoreDateTime(new Date(product.publicar_em))} (horário de Fortaleza). Até lá, a loja não mostra este produto.`;
  }
  if (product.rascunho) return 'Rascunho: a loja ainda não mostra este produto.';
  if (product.oculto) return 'Publicado, mas oculto na loja.';
  return 'À venda na loja.';
}

/**
 * A draft's publishing (decision 0085): at once, or at a minute the shop keeps by itself (a collection's
 * "lançamento"); either needs a ready photo and stock, which the section names while they are missing.
 * `onSaved` gets the answer, so the page's form keeps the new version.
 */
export function ProductPublishing({
  product,
  onSaved,
}: {
  product: PainelProduct;
  onSaved: (saved: PainelProduct) => void;
}) {
  const publish = usePublishProduct(product.id);
  const [when, setWhen] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [status, setStatus] = useState<{ tone: 'success' | 'error'; message: string } | null>(null);
  const missing = product.falta_para_vender;

  const send = async (body: { publicar_em?: string; cancel?: boolean }, done: string) => {
    setError(undefined);
    try {
      onSaved(await publish.mutateAsync({ versao: product.versao, ...body }));
      setStatus({ tone: 'success', message: done });
    } catch (failure) {
      setError(fieldErrors(failure).publicar_em);
      setStatus({ tone: 'error', message: errorMessage(failure) });
    }
  };
  const schedule = (event: FormEvent) => {
    event.preventDefault();
    void send({ publicar_em: fromLocal(when) }, 'Lançamento agendado.');
  };

  return (
    <section aria-labelledby="publicacao-titulo" className="mt-8">
      <h2 id="publicacao-titulo" className="mb-1 text-xl font-semibold">
        Publicação
      </h2>
      <p className="mb-2">{situation(product)}</p>
      {product.rascunho && missing.length ? (
        <p className="mb-2 text-sm text-amber-800 dark:text-amber-300">
          Para colocar à venda, falta {missing.map((m) => MISSING[m]).join(' e ')}.
          {product.publicar_em
            ? ' Na hora marcada, ele só entra na loja quando tiver o que falta.'
            : ' Você já pode agendar o lançamento: ele entra na loja na hora marcada, se tiver o que falta.'}
        </p>
      ) : null}
      {product.rascunho ? null : (
        <p className="mb-2 text-sm">
          <Link to={`/produto/${product.id}`} className={linkClass}>
            Ver na loja
          </Link>
        </p>
      )}
      {product.rascunho ? (
        <div className="flex flex-wrap items-end gap-3">
          <button
            type="button"
            className={primaryButtonClass}
            disabled={publish.isPending || missing.length > 0}
            onClick={() => void send({}, 'Produto publicado: já está à venda na loja.')}
          >
            Publicar agora
          </button>
          {product.publicar_em ? (
            <button
              type="button"
              className={secondaryButtonClass}
              disabled={publish.isPending}
              onClick={() => void send({ cancel: true }, 'Agendamento cancelado.')}
            >
              Cancelar agendamento
            </button>
          ) : null}
          <form
            onSubmit={schedule}
            noValidate
            aria-label="Agendar lançamento"
            className="flex flex-wrap items-end gap-3"
          >
            <FormField
              label="Data e hora do lançamento"
              type="datetime-local"
              value={when}
              error={error}
              onChange={(e) => setWhen(e.target.value)}
            />
            <button type="submit" className={secondaryButtonClass} disabled={publish.isPending}>
              {product.publicar_em ? 'Mudar o lançamento' : 'Agendar lançamento'}
            </button>
          </form>
        </div>
      ) : null}
      <FormStatus message={status?.message ?? null} tone={status?.tone ?? 'success'} />
    </section>
  );
}
