import type { ProductCategory } from '@passada/core/contracts/catalog';
import { formatIsoDateBR } from '@passada/core/events';
import { useEvents, useEventsDetails } from '../../shell/api/event-lists.ts';
import { type Draft, toggle } from '../utils/coupon-draft.ts';

const PRODUCT_CATEGORIES: Array<[ProductCategory, string]> = [
  ['feminino', 'Feminino'],
  ['masculino', 'Masculino'],
  ['acessorios', 'Acessórios'],
];

export function Checkbox(props: { label: string; checked: boolean; onChange: (on: boolean) => void }) {
  return (
    <label className="flex items-center gap-2 text-sm">
      <input type="checkbox" checked={props.checked} onChange={(e) => props.onChange(e.target.checked)} />
      {props.label}
    </label>
  );
}

/**
 * Where a coupon applies: product categories for a shop coupon; events, and their categories, for a
 * race coupon.
 */
export function CouponScopeFields({
  draft,
  errors,
  set,
}: {
  draft: Draft;
  errors: Record<string, string>;
  set: (patch: Partial<Draft>) => void;
}) {
  const events = useEvents();
  // The categories of the events chosen, to narrow a race coupon further.
  const chosenEvents = useEventsDetails(draft.eventos);
  return (
    <>
      {draft.escopo === 'loja' ? (
        <fieldset className="sm:col-span-2">
          <legend className="text-sm font-medium">Categorias de produto (nenhuma: todas)</legend>
          <div className="mt-1 flex gap-4">
            {PRODUCT_CATEGORIES.map(([value, label]) => (
              <Checkbox
                key={value}
                label={label}
                checked={draft.categorias_produto.includes(value)}
                onChange={(on) => set({ categorias_produto: toggle(draft.categorias_produto, value, on) })}
              />
            ))}
          </div>
          {errors.categorias_produto ? (
            <p className="text-sm text-red-700 dark:text-red-400">{errors.categorias_produto}</p>
          ) : null}
        </fieldset>
      ) : (
        <fieldset className="sm:col-span-2">
          <legend className="text-sm font-medium">Eventos (nenhum: todos)</legend>
          <div className="mt-1 flex flex-col gap-1">
            {events.data?.map((e) => (
              <Checkbox
                key={e.id}
                label={e.nome_evento}
                checked={draft.eventos.includes(e.id)}
                onChange={(on) =>
                  set({
                    eventos: toggle(draft.eventos, e.id, on),
                    // Unchecking an event drops its categories from the choice too.
                    categorias_evento: on
                      ? draft.categorias_evento
                      : draft.categorias_evento.filter(
                          (id) =>
                            !chosenEvents
                              .find((q) => q.data?.id === e.id)
                              ?.data?.dias_evento.some((d) => d.categorias.some((c) => c.id === id)),
                        ),
                  })
                }
              />
            ))}
          </div>
          {chosenEvents.some((q) => q.data) ? (
            <>
              <p className="mt-3 text-sm font-medium">Categorias (nenhuma: todas dos eventos escolhidos)</p>
              <div className="mt-1 flex flex-col gap-1">
                {chosenEvents.flatMap((q) =>
                  (q.data?.dias_evento ?? []).flatMap((day) =>
                    day.categorias.map((c) => (
                      <Checkbox
                        key={c.id}
                        label={`${q.data?.nome_evento}: ${c.nome_categoria} (${formatIsoDateBR(day.data)})`}
                        checked={draft.categorias_evento.includes(c.id)}
                        onChange={(on) =>
                          set({ categorias_evento: toggle(draft.categorias_evento, c.id, on) })
                        }
                      />
                    )),
                  ),
                )}
              </div>
            </>
          ) : null}
          {errors.eventos || errors.categorias_evento ? (
            <p className="text-sm text-red-700 dark:text-red-400">
              {errors.eventos ?? errors.categorias_evento}
            </p>
          ) : null}
        </fieldset>
      )}
    </>
  );
}
