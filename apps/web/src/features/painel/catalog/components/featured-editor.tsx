import { useState } from 'react';
import {
  FormStatus,
  primaryButtonClass,
  SelectField,
  secondaryButtonClass,
} from '../../../../components/form-field.tsx';
import { ResponsiveImage } from '../../../../components/responsive-image.tsx';
import { MoveButtons, moved } from '../../shell/components/move-buttons.tsx';
import { isStaleVersion, StaleVersionAlert } from '../../shell/components/stale-version-alert.tsx';
import { errorMessage } from '../../shell/utils/error-message.ts';
import { type Featured, useSaveFeatured } from '../api/home.ts';
import { useProducts } from '../api/products.ts';

/**
 * The home page's featured products, in the order the shop shows them: add one (first or last), move
 * it (drag, or the named up and down buttons), take it out, then save the whole list with the version
 * it was read at.
 */
export function FeaturedEditor({
  featured,
  canEdit,
  onReload,
}: {
  featured: Featured;
  canEdit: boolean;
  onReload(): Promise<void>;
}) {
  const products = useProducts();
  const save = useSaveFeatured();
  const [ids, setIds] = useState(featured.ids);
  const [chosen, setChosen] = useState('');
  const [dragged, setDragged] = useState<number | null>(null);
  const [status, setStatus] = useState<{ message: string; tone: 'success' | 'error' } | null>(null);
  const [stale, setStale] = useState<string | null>(null);
  const byId = new Map(products.data?.map((p) => [p.id, p]));
  const others = products.data?.filter((p) => !ids.includes(p.id)) ?? [];

  const add = (first: boolean) => {
    const id = Number(chosen);
    if (!id) return;
    setIds((list) => (first ? [id, ...list] : [...list, id]));
    setChosen('');
  };

  const submit = async () => {
    setStatus(null);
    try {
      await save.mutateAsync({ versao: featured.versao, ids });
      setStatus({ message: 'Destaques salvos. A home da loja já mostra esta ordem.', tone: 'success' });
    } catch (error) {
      if (isStaleVersion(error)) setStale(errorMessage(error));
      else setStatus({ message: errorMessage(error), tone: 'error' });
    }
  };

  return (
    <section aria-labelledby="destaques-titulo" className="mb-10">
      <h2 id="destaques-titulo" className="mb-1 text-xl font-semibold">
        Produtos em destaque ({ids.length})
      </h2>
      <p className="mb-3 text-sm">A home mostra todos, nesta ordem. Produtos ocultos não aparecem.</p>
      {canEdit ? (
        <div className="mb-3 flex flex-wrap items-end gap-2">
          <div className="w-72">
            <SelectField
              label="Produto para destacar"
              value={chosen}
              onChange={(e) => setChosen(e.target.value)}
            >
              <option value="">Escolha um produto</option>
              {others.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </SelectField>
          </div>
          <button type="button" className={secondaryButtonClass} disabled={!chosen} onClick={() => add(true)}>
            Destacar no início
          </button>
          <button
            type="button"
            className={secondaryButtonClass}
            disabled={!chosen}
            onClick={() => add(false)}
          >
            Destacar no fim
          </button>
        </div>
      ) : null}
      <ol aria-label="Ordem dos destaques na home" className="grid max-w-2xl gap-2">
        {ids.map((id, index) => {
          const product = byId.get(id);
          const name = product?.name ?? `Produto ${id}`;
          const image = product?.images.find((i) => i.status === 'pronta');
          return (
            <li
              key={id}
              draggable={canEdit}
              onDragStart={() => setDragged(index)}
              onDragOver={(e) => e.preventDefault()}
              onDrop={() => {
                if (dragged !== null) setIds((list) => moved(list, dragged, index));
                setDragged(null);
              }}
              className="flex items-center gap-3 rounded-lg border border-stone-300 bg-white p-2 dark:border-stone-700 dark:bg-stone-900"
            >
              <span className="w-6 text-right tabular-nums">{index + 1}</span>
              {image ? (
                <ResponsiveImage
                  src={image.url}
                  sizes="40px"
                  alt=""
                  width={40}
                  height={40}
                  loading="lazy"
                  className="size-10 rounded bg-stone-100 object-cover dark:bg-stone-800"
                />
              ) : (
                <span className="block size-10 rounded bg-stone-100 dark:bg-stone-800" />
              )}
              <span className="flex-1">
                {name}
                {product?.oculto ? ' (oculto)' : ''}
              </span>
              {canEdit ? (
                <MoveButtons
                  name={name}
                  index={index}
                  count={ids.length}
                  removeLabel="Tirar dos destaques:"
                  onMove={(from, to) => setIds((list) => moved(list, from, to))}
                  onRemove={() => setIds((list) => list.filter((other) => other !== id))}
                />
              ) : null}
            </li>
          );
        })}
      </ol>
      <div className="mt-3 grid max-w-2xl gap-2">
        <FormStatus message={status?.message ?? null} tone={status?.tone ?? 'success'} />
        {stale ? (
          <StaleVersionAlert message={stale} reloadLabel="Recarregar os destaques" onReload={onReload} />
        ) : null}
        {canEdit ? (
          <button type="button" className={`${primaryButtonClass} justify-self-start`} onClick={submit}>
            Salvar destaques
          </button>
        ) : null}
      </div>
    </section>
  );
}
