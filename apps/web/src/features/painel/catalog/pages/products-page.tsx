import { formatStoreDateTime } from '@passada/core/calendar';
import { formatBRL, reaisToCents } from '@passada/core/money';
import { type FormEvent, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import {
  inputClass,
  linkClass,
  primaryButtonClass,
  secondaryButtonClass,
} from '../../../../components/form-field.tsx';
import { ResponsiveImage } from '../../../../components/responsive-image.tsx';
import { useStaffCan } from '../../shell/api/auth.ts';
import { DataTable } from '../../shell/components/data-table.tsx';
import { useProducts } from '../api/products.ts';

/** `/painel/produtos`: every product with its first photo; `?busca=` keeps a search by name in the address. */
export default function ProductsPage() {
  const canEdit = useStaffCan('catalogo');
  const [params, setParams] = useSearchParams();
  const search = params.get('busca') ?? '';
  const [typed, setTyped] = useState(search);
  const products = useProducts(search);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setParams(typed.trim() ? { busca: typed.trim() } : {}, { replace: true });
  };

  return (
    <section>
      <div className="mb-4 flex items-center justify-between">
        <h1 className="text-2xl font-bold">Produtos</h1>
        {canEdit ? (
          <Link to="/painel/produtos/novo" className={primaryButtonClass}>
            Novo produto
          </Link>
        ) : null}
      </div>
      <search>
        <form aria-label="Buscar produtos" onSubmit={submit} className="mb-4 flex max-w-xl items-end gap-2">
          <label className="grid flex-1 gap-1 text-sm font-medium">
            Buscar pelo nome
            <input
              type="search"
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
              maxLength={100}
              className={inputClass}
            />
          </label>
          <button type="submit" className={secondaryButtonClass}>
            Buscar
          </button>
        </form>
      </search>
      {products.isPending ? <p>Carregando…</p> : null}
      <DataTable
        label={search ? `Produtos com “${search}” no nome` : 'Produtos'}
        rows={products.data}
        rowKey={(p) => p.id}
        empty={search ? 'Nenhum produto com esse nome.' : 'Nenhum produto ainda.'}
        columns={[
          {
            header: 'Foto',
            hideHeader: true,
            cell: (p) => {
              const image = p.images.find((i) => i.status === 'pronta');
              return image ? (
                <ResponsiveImage
                  src={image.url}
                  sizes="48px"
                  alt=""
                  width={48}
                  height={48}
                  loading="lazy"
                  className="size-12 rounded bg-stone-100 object-cover dark:bg-stone-800"
                />
              ) : (
                <span className="block size-12 rounded bg-stone-100 dark:bg-stone-800" />
              );
            },
          },
          {
            header: 'Produto',
            rowHeader: true,
            cell: (p) => (
              <Link to={`/painel/produtos/${p.id}`} className={linkClass}>
                {p.name}
              </Link>
            ),
          },
          { header: 'Categoria', cell: (p) => p.category },
          { header: 'Preço', cell: (p) => formatBRL(reaisToCents(p.price)) },
          { header: 'Estoque', cell: (p) => p.stock.reduce((sum, s) => sum + s.quantity, 0) },
          {
            header: 'Situação',
            cell: (p) =>
              p.rascunho
                ? p.publicar_em
                  ? `Lançamento em ${formatStoreDateTime(new Date(p.publicar_em))}`
                  : 'Rascunho'
                : p.oculto
                  ? 'Oculto'
                  : p.aparecer_home
                    ? 'Visível, na home'
                    : 'Visível',
          },
        ]}
      />
    </section>
  );
}
