import type { PainelParticipant } from '@passada/core/contracts/painel';
import { type FormEvent, useState } from 'react';
import { FormField, primaryButtonClass, secondaryButtonClass } from '../../../components/form-field.tsx';
import { ApiRequestError } from '../../../lib/api.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { QrScanner } from '../components/qr-scanner.tsx';
import { errorMessage, painelFetch } from '../painel-api.ts';

type Outcome = { tone: 'ok' | 'already' | 'error'; message: string; participant?: PainelParticipant };

/** Race-day kit pickup on a phone: scan the registration's QR or search by name/CPF, mark once. */
export default function CheckinPage() {
  const [camera, setCamera] = useState(false);
  const [search, setSearch] = useState('');
  const [number, setNumber] = useState('');
  const [found, setFound] = useState<PainelParticipant[] | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  const checkIn = async (body: { codigo: string } | { inscricao: number }) => {
    try {
      const p = await painelFetch<PainelParticipant>('/checkin/', { method: 'POST', body });
      setOutcome({ tone: 'ok', message: `Kit entregue: ${p.nome_completo}.`, participant: p });
      setFound((list) => list?.map((x) => (x.id === p.id ? p : x)) ?? null);
    } catch (error) {
      const already = error instanceof ApiRequestError && error.body?.code === 'ja_retirado';
      const participant = already
        ? ((error.body as unknown as { participante?: PainelParticipant }).participante ?? undefined)
        : undefined;
      setOutcome({ tone: already ? 'already' : 'error', message: errorMessage(error), participant });
    }
  };

  const find = async (event: FormEvent) => {
    event.preventDefault();
    setOutcome(null);
    try {
      setFound(
        await painelFetch<PainelParticipant[]>(`/checkin/search/?busca=${encodeURIComponent(search)}`),
      );
    } catch (error) {
      setOutcome({ tone: 'error', message: errorMessage(error) });
    }
  };

  const box = {
    ok: 'bg-green-100 text-green-900 dark:bg-green-950 dark:text-green-100',
    already: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-100',
    error: 'bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-100',
  };

  return (
    <section className="max-w-lg">
      <h1 className="mb-4 text-2xl font-bold">Check-in: retirada de kits</h1>
      {outcome ? (
        <div
          role={outcome.tone === 'ok' ? 'status' : 'alert'}
          className={`mb-4 rounded-lg p-4 ${box[outcome.tone]}`}
        >
          <p className="text-lg font-semibold">
            {outcome.tone === 'already' ? 'Já retirado' : outcome.message}
          </p>
          {outcome.tone === 'already' ? <p>{outcome.message}</p> : null}
          {outcome.participant ? (
            <p>
              Nº {outcome.participant.id} · {outcome.participant.nome_completo} · CPF{' '}
              {outcome.participant.cpf} · {outcome.participant.categorias.map((c) => c.nome).join(', ')}
            </p>
          ) : null}
        </div>
      ) : null}
      <button type="button" className={`${secondaryButtonClass} mb-4`} onClick={() => setCamera(!camera)}>
        {camera ? 'Fechar câmera' : 'Ler QR code com a câmera'}
      </button>
      {camera ? <QrScanner onCode={(codigo) => checkIn({ codigo })} /> : null}
      <form
        className="mt-4 flex items-end gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          void checkIn({ inscricao: Number(number.replace(/\D/g, '')) || 0 });
        }}
      >
        <div className="flex-1">
          <FormField
            label="Número da inscrição (abaixo do QR code)"
            inputMode="numeric"
            value={number}
            onChange={(e) => setNumber(e.target.value)}
          />
        </div>
        <button type="submit" className={primaryButtonClass}>
          Entregar kit
        </button>
      </form>
      <form onSubmit={find} className="mt-4 flex items-end gap-2">
        <div className="flex-1">
          <FormField label="Nome ou CPF" value={search} onChange={(e) => setSearch(e.target.value)} />
        </div>
        <button type="submit" className={primaryButtonClass}>
          Buscar
        </button>
      </form>
      {found?.length === 0 ? <p className="mt-3">Ninguém encontrado.</p> : null}
      <ul className="mt-3 flex flex-col gap-2">
        {found?.map((p) => (
          <li key={p.id} className="rounded-lg border border-stone-300 p-3 dark:border-stone-700">
            <p className="font-semibold">
              {p.nome_completo} <span className="font-normal">(nº {p.id})</span>
            </p>
            <p className="text-sm">
              CPF {p.cpf} · {p.categorias.map((c) => c.nome).join(', ')}
            </p>
            {p.retirada ? (
              <p className="text-sm">
                Retirado em {formatDateTime(p.retirada.at)} por {p.retirada.staff_name}
              </p>
            ) : p.cancelamento ? (
              <p className="text-sm font-semibold text-red-700 dark:text-red-400">
                Inscrição cancelada em {formatDateTime(p.cancelamento.em)}: não entregue o kit.
              </p>
            ) : (
              <button
                type="button"
                className={`${primaryButtonClass} mt-2`}
                onClick={() => checkIn({ inscricao: p.id })}
                aria-label={`Entregar kit de ${p.nome_completo}`}
              >
                Entregar kit
              </button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
