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
          {/* Information, not controls: the size is chosen on the registration form. */}
          <ul className="mt-1 flex flex-wrap gap-x-3 text-stone-800 dark:text-stone-200">
            {kit.tamanhos.map((s) => (
              <li key={s.id}>
                {s.quantidade_disponivel <= 0 ? (
                  <span className="text-stone-500 dark:text-stone-400">
                    <s>{s.tamanho}</s> (esgotado)
                  </span>
                ) : (
                  s.tamanho
                )}
              </li>
            ))}
          </ul>
          <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
            O tamanho é escolhido na inscrição.
          </p>
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
