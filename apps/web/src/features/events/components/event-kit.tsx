import type { Kit } from '@passada/core/contracts/events';

/** The kit: shirt sizes (a size that ran out shows "Esgotado") and where and when to pick it up. */
export function EventKit({ kit }: { kit: Kit }) {
  if (kit.tamanhos.length === 0 && !kit.local_retirada && !kit.horarios_retirada) return null;
  return (
    <section aria-labelledby="kit-titulo" className="mt-8">
      <h2 id="kit-titulo" className="mb-3 text-xl font-bold">
        Kit do atleta
      </h2>
      {kit.tamanhos.length > 0 ? (
        <>
          <h3 className="font-semibold">Tamanhos da camisa</h3>
          <ul className="mt-2 flex flex-wrap gap-2">
            {kit.tamanhos.map((s) => (
              <li
                key={s.id}
                className={`rounded-lg border px-3 py-1 ${
                  s.quantidade_disponivel <= 0
                    ? 'border-stone-300 text-stone-500 line-through dark:border-stone-700'
                    : 'border-brand-600'
                }`}
              >
                {s.tamanho}
                {s.quantidade_disponivel <= 0 ? <span className="ml-1 no-underline">Esgotado</span> : null}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {kit.local_retirada || kit.horarios_retirada ? (
        <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
          {kit.local_retirada ? (
            <>
              <dt className="font-semibold">Retirada do kit</dt>
              <dd>{kit.local_retirada}</dd>
            </>
          ) : null}
          {kit.horarios_retirada ? (
            <>
              <dt className="font-semibold">Datas e horários</dt>
              <dd className="whitespace-pre-line">{kit.horarios_retirada}</dd>
            </>
          ) : null}
        </dl>
      ) : null}
    </section>
  );
}
