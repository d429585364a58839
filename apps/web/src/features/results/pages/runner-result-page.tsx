import { formatIsoDateBR } from '@passada/core/events';
import { RESULT_STATUS_LABEL } from '@passada/core/results';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { runnerResultQuery } from '../../../lib/results-api.ts';
import { BackToShop } from '../components/back-to-shop.tsx';
import { RacePhotos } from '../components/race-photos.tsx';
import { describeAgeGroup, placeOutOf } from '../utils/places.ts';

/** /eventos/resultados/{id}/{numero}: one runner's times, pace and places (docs/decisions/0064). */
export default function RunnerResultPage() {
  const { id = '', numero = '' } = useParams();
  const { data, isPending, isError } = useQuery(runnerResultQuery(id, numero));

  if (isPending)
    return (
      <main className="mx-auto max-w-3xl px-4 py-10">
        <p role="status">Carregando resultado...</p>
      </main>
    );
  if (isError)
    return (
      <main className="mx-auto max-w-3xl px-4 py-10">
        <h1 className="text-2xl font-bold">Resultado não encontrado.</h1>
        <p className="mt-2">
          <Link
            to={`/eventos/resultados/${id}`}
            className="font-semibold text-brand-800 underline dark:text-brand-100"
          >
            Ver todos os resultados
          </Link>
        </p>
      </main>
    );

  const [first] = data.provas;
  return (
    <main className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-3xl font-black tracking-tight">{first!.nome}</h1>
      <p className="mb-6 mt-2">
        {data.evento.nome}, {data.evento.cidade}, {formatIsoDateBR(data.evento.data)}
      </p>
      {data.provas.map((p) => (
        <section
          key={p.categoria_id}
          aria-labelledby={`prova-${p.categoria_id}`}
          className="mb-6 rounded-lg border border-stone-300 p-4 dark:border-stone-700"
        >
          <h2 id={`prova-${p.categoria_id}`} className="mb-3 text-xl font-bold">
            {p.categoria} ({formatIsoDateBR(p.dia)})
          </h2>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2">
            <dt className="font-medium">Número de peito</dt>
            <dd>{p.numero}</dd>
            {p.equipe && (
              <>
                <dt className="font-medium">Equipe</dt>
                <dd>{p.equipe}</dd>
              </>
            )}
            <dt className="font-medium">Situação</dt>
            <dd>{RESULT_STATUS_LABEL[p.situacao]}</dd>
            {p.tempo_bruto && (
              <>
                <dt className="font-medium">Tempo bruto</dt>
                <dd className="tabular-nums">{p.tempo_bruto}</dd>
              </>
            )}
            {p.tempo_liquido && (
              <>
                <dt className="font-medium">Tempo líquido</dt>
                <dd className="tabular-nums">{p.tempo_liquido}</dd>
              </>
            )}
            {p.ritmo && p.situacao === 'OK' && (
              <>
                <dt className="font-medium">Ritmo</dt>
                <dd className="tabular-nums">{p.ritmo}</dd>
              </>
            )}
            <dt className="font-medium">Colocação geral</dt>
            <dd>{placeOutOf(p.colocacao_geral, p.concluintes_geral)}</dd>
            <dt className="font-medium">No gênero ({p.genero})</dt>
            <dd>{placeOutOf(p.colocacao_genero, p.concluintes_genero)}</dd>
            <dt className="font-medium">Na faixa etária ({describeAgeGroup(p.faixa_etaria)})</dt>
            <dd>{placeOutOf(p.colocacao_faixa, p.concluintes_faixa)}</dd>
          </dl>
          {p.situacao === 'OK' && (
            <p className="mt-3">
              <a
                href={`/api/events/${data.evento.id}/resultados/${p.numero}/certificado.pdf`}
                className="font-semibold text-brand-800 underline dark:text-brand-100"
              >
                Baixar certificado (PDF)
              </a>
            </p>
          )}
        </section>
      ))}
      <RacePhotos photos={data.fotos} name={first!.nome} />
      <BackToShop links={data.depois_da_chegada} />
      <p>
        <Link
          to={`/eventos/resultados/${data.evento.id}`}
          className="font-semibold text-brand-800 underline dark:text-brand-100"
        >
          Ver todos os resultados
        </Link>
      </p>
    </main>
  );
}
