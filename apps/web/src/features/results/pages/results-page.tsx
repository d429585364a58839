import { GENEROS } from '@passada/core/contracts/registrations';
import { formatIsoDateBR } from '@passada/core/events';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { secondaryButtonClass } from '../../../components/button-classes.ts';
import { type ResultSearch, resultsQuery } from '../../../lib/results-api.ts';
import { describeAgeGroup, shownTime } from '../utils/places.ts';

const selectClass =
  'w-full rounded-lg border border-stone-300 bg-white px-3 py-2 dark:border-stone-700 dark:bg-stone-900';

/**
 * /eventos/resultados/{id}: the event's published results (docs/decisions/0064), searched by name, bib
 * or team and filtered by category, gender and age group; the search lives in the address, so a search
 * can be shared.
 */
export default function ResultsPage() {
  const { id = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const search: ResultSearch = {
    busca: params.get('busca') ?? undefined,
    categoria: params.get('categoria') ?? undefined,
    genero: params.get('genero') ?? undefined,
    faixa: params.get('faixa') ?? undefined,
    page: Number(params.get('page') ?? '1') || 1,
  };
  const { data, isPending, isError } = useQuery(resultsQuery(id, search));
  const ids = useId();

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const next = new URLSearchParams();
    for (const key of ['busca', 'categoria', 'genero', 'faixa']) {
      const value = String(form.get(key) ?? '').trim();
      if (value) next.set(key, value);
    }
    setParams(next);
  };
  const goTo = (page: number) => {
    const next = new URLSearchParams(params);
    next.set('page', String(page));
    setParams(next);
  };

  if (isPending)
    return (
      <main className="mx-auto max-w-3xl px-4 py-10">
        <p role="status">Carregando resultados...</p>
      </main>
    );
  if (isError)
    return (
      <main className="mx-auto max-w-3xl px-4 py-10">
        <h1 className="text-2xl font-bold">Evento não encontrado.</h1>
      </main>
    );

  return (
    <main className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-3xl font-black tracking-tight">Resultados: {data.evento.nome}</h1>
      <p className="mb-6 mt-2">
        {formatIsoDateBR(data.evento.data)} ·{' '}
        <Link
          to={`/eventos/register/${data.evento.id}`}
          className="font-semibold text-brand-800 underline dark:text-brand-100"
        >
          Voltar ao evento
        </Link>
      </p>
      {!data.publicado ? (
        <p>Os resultados desta prova ainda não foram publicados.</p>
      ) : (
        <>
          <form aria-label="Buscar resultados" onSubmit={submit} className="mb-6 grid gap-3 sm:grid-cols-2">
            <div className="sm:col-span-2">
              <label htmlFor={`${ids}-busca`} className="mb-1 block font-medium">
                Nome, número de peito ou equipe
              </label>
              <input
                id={`${ids}-busca`}
                name="busca"
                type="search"
                defaultValue={search.busca}
                className={selectClass}
              />
            </div>
            <div>
              <label htmlFor={`${ids}-categoria`} className="mb-1 block font-medium">
                Categoria
              </label>
              <select
                id={`${ids}-categoria`}
                name="categoria"
                defaultValue={search.categoria ?? ''}
                className={selectClass}
              >
                <option value="">Todas</option>
                {data.filtros.categorias.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.nome} ({formatIsoDateBR(c.dia)})
                  </option>
                ))}
              </select>
            </div>
            <div>
              <label htmlFor={`${ids}-genero`} className="mb-1 block font-medium">
                Gênero
              </label>
              <select
                id={`${ids}-genero`}
                name="genero"
                defaultValue={search.genero ?? ''}
                className={selectClass}
              >
                <option value="">Todos</option>
                {GENEROS.map((g) => (
                  <option key={g} value={g}>
                    {g}
                  </option>
                ))}
              </select>
            </div>
            <div>
              <label htmlFor={`${ids}-faixa`} className="mb-1 block font-medium">
                Faixa etária
              </label>
              <select
                id={`${ids}-faixa`}
                name="faixa"
                defaultValue={search.faixa ?? ''}
                className={selectClass}
              >
                <option value="">Todas</option>
                {data.filtros.faixas.map((f) => (
                  <option key={f} value={f}>
                    {describeAgeGroup(f)}
                  </option>
                ))}
              </select>
            </div>
            <div className="flex items-end">
              <button type="submit" className={secondaryButtonClass}>
                Buscar
              </button>
            </div>
          </form>
          <p role="status" className="mb-3">
            {data.count === 1 ? '1 resultado' : `${data.count} resultados`}
          </p>
          {data.count > 0 && (
            <table className="w-full border-collapse text-left">
              <caption className="sr-only">Resultados de {data.evento.nome}</caption>
              <thead>
                <tr className="border-b border-stone-300 dark:border-stone-700">
                  <th scope="col" className="py-2 pr-2">
                    Geral
                  </th>
                  <th scope="col" className="py-2 pr-2">
                    Atleta
                  </th>
                  <th scope="col" className="py-2">
                    Tempo
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.results.map((r) => (
                  <tr
                    key={`${r.categoria_id}-${r.numero}`}
                    className="border-b border-stone-200 align-top dark:border-stone-800"
                  >
                    <td className="py-2 pr-2 font-bold">
                      {r.colocacao_geral ? `${r.colocacao_geral}º` : '—'}
                    </td>
                    <td className="py-2 pr-2">
                      <Link
                        to={`/eventos/resultados/${data.evento.id}/${r.numero}`}
                        className="font-semibold text-brand-800 underline dark:text-brand-100"
                      >
                        {r.nome}
                      </Link>
                      <span className="block text-sm">
                        Nº {r.numero} · {r.categoria} · {r.faixa_etaria}
                        {r.equipe ? ` · ${r.equipe}` : ''}
                      </span>
                    </td>
                    <td className="py-2 tabular-nums">{shownTime(r)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {data.pages > 1 && (
            <nav
              aria-label="Paginação dos resultados"
              className="mt-6 flex items-center justify-center gap-4"
            >
              <button
                type="button"
                className={secondaryButtonClass}
                disabled={data.page <= 1}
                onClick={() => goTo(data.page - 1)}
              >
                Anterior
              </button>
              <span>
                Página {data.page} de {data.pages}
              </span>
              <button
                type="button"
                className={secondaryButtonClass}
                disabled={data.page >= data.pages}
                onClick={() => goTo(data.page + 1)}
              >
                Próxima
              </button>
            </nav>
          )}
        </>
      )}
    </main>
  );
}
