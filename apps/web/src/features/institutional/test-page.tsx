import { useQuery } from '@tanstack/react-query';
import { healthQuery } from './api/health-api.ts';

/** /teste: a small status page showing whether the API and its database answer. */
export default function TestPage() {
  const health = useQuery(healthQuery);
  return (
    <main className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="mb-6 text-3xl font-black tracking-tight">Teste</h1>
      <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2">
        <dt className="font-semibold">API</dt>
        <dd role="status">
          {health.isPending
            ? 'Verificando...'
            : health.isError
              ? 'Indisponível'
              : health.data.status === 'ok'
                ? 'Funcionando'
                : 'Indisponível'}
        </dd>
        <dt className="font-semibold">Banco de dados</dt>
        <dd>{health.data?.database ?? '—'}</dd>
      </dl>
      <button
        type="button"
        onClick={() => health.refetch()}
        className="mt-6 rounded-lg border border-stone-400 px-4 py-2 font-medium hover:bg-stone-100 dark:hover:bg-stone-800"
      >
        Verificar novamente
      </button>
    </main>
  );
}
