import type { PainelWaves } from '@passada/core/contracts/waves';
import { type FormEvent, useState } from 'react';
import { useParams } from 'react-router';
import {
  FormField,
  FormStatus,
  primaryButtonClass,
  secondaryButtonClass,
} from '../../../../components/form-field.tsx';
import { errorMessage } from '../../shell/utils/error-message.ts';
import { useEvent } from '../api/events.ts';
import { useGiveMissingWaves, useSaveWaves, useWaves } from '../api/waves.ts';

const card = 'rounded-lg border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900';

type Category = PainelWaves[number];
interface Row {
  id?: number;
  nome: string;
  ate: string;
  capacidade: string;
  ocupadas: number;
}

const rowsOf = (c: Category): Row[] =>
  c.ondas.map((o) => ({
    id: o.id,
    nome: o.nome,
    ate: o.ate ?? '',
    capacidade: o.capacidade === null ? '' : String(o.capacidade),
    ocupadas: o.ocupadas,
  }));

/** One category's waves, edited as rows: the last takes whoever did not fit (no time, no cap). */
function CategoryWaves({ eventId, category }: { eventId: number; category: Category }) {
  const save = useSaveWaves(eventId);
  const give = useGiveMissingWaves(eventId);
  const [rows, setRows] = useState<Row[]>(() => rowsOf(category));
  const [saved, setSaved] = useState(false);
  const [given, setGiven] = useState<string | null>(null);
  const giveMissing = async () => {
    setGiven(null);
    const answer = await give.mutateAsync(category.categoria_id).catch(() => null);
    const mine = answer?.categorias.find((c) => c.categoria_id === category.categoria_id);
    if (!answer || !mine) return;
    setRows(rowsOf(mine));
    setGiven(
      answer.atribuidas === 0
        ? 'Todos os inscritos já têm onda.'
        : `${answer.atribuidas} inscrito${answer.atribuidas === 1 ? ' recebeu' : 's receberam'} onda.`,
    );
  };
  const edit = (i: number, patch: Partial<Row>) => {
    setSaved(false);
    setRows((list) => list.map((r, n) => (n === i ? { ...r, ...patch } : r)));
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const answer = await save
      .mutateAsync({
        categoryId: category.categoria_id,
        body: {
          ondas: rows.map((r, n) => ({
            ...(r.id ? { id: r.id } : {}),
            nome: r.nome,
            // The last wave has no bound nor cap, whatever is typed in it.
            ate: n === rows.length - 1 || !r.ate.trim() ? null : r.ate.trim(),
            capacidade: n === rows.length - 1 || !r.capacidade.trim() ? null : Number(r.capacidade),
          })),
        },
      })
      .catch(() => null);
    const mine = answer?.find((c) => c.categoria_id === category.categoria_id);
    if (mine) {
      setRows(rowsOf(mine));
      setSaved(true);
    }
  };
  const letter = (n: number) => String.fromCharCode(65 + n);
  return (
    <form onSubmit={submit} aria-label={`Ondas de ${category.categoria}`} className={card}>
      <h2 className="mb-2 font-semibold">{category.categoria}</h2>
      {rows.length === 0 ? <p className="text-sm">Largada única (sem ondas).</p> : null}
      <ol className="flex flex-col gap-3">
        {rows.map((r, n) => {
          const last = n === rows.length - 1;
          return (
            <li key={r.id ?? `nova-${n}`} className="grid gap-2 sm:grid-cols-[2fr_1fr_1fr_auto] sm:items-end">
              <FormField
                label={`Nome da onda ${n + 1}`}
                value={r.nome}
                onChange={(e) => edit(n, { nome: e.target.value })}
                required
              />
              <FormField
                label={`Tempo estimado até (h:mm), onda ${n + 1}`}
                value={last ? '' : r.ate}
                placeholder={last ? 'o restante' : '0:50'}
                disabled={last}
                onChange={(e) => edit(n, { ate: e.target.value })}
              />
              <FormField
                label={`Vagas (opcional), onda ${n + 1}`}
                type="number"
                min={1}
                value={last ? '' : r.capacidade}
                placeholder={last ? 'sem limite' : ''}
                disabled={last}
                onChange={(e) => edit(n, { capacidade: e.target.value })}
              />
              <p className="text-sm">
                {r.ocupadas} inscrito{r.ocupadas === 1 ? '' : 's'}
                {r.ocupadas === 0 ? (
                  <button
                    type="button"
                    className={`${secondaryButtonClass} ml-2`}
                    aria-label={`Remover a onda ${n + 1}`}
                    onClick={() => setRows((list) => list.filter((_, i) => i !== n))}
                  >
                    Remover
                  </button>
                ) : null}
              </p>
            </li>
          );
        })}
      </ol>
      <div className="mt-3 flex flex-wrap gap-2">
        <button
          type="button"
          className={secondaryButtonClass}
          onClick={() =>
            setRows((list) => [
              ...list,
              { nome: `Onda ${letter(list.length)}`, ate: '', capacidade: '', ocupadas: 0 },
            ])
          }
        >
          Adicionar onda em {category.categoria}
        </button>
        <button type="submit" className={primaryButtonClass} disabled={save.isPending}>
          Salvar ondas de {category.categoria}
        </button>
        {category.ondas.length ? (
          <button
            type="button"
            className={secondaryButtonClass}
            disabled={give.isPending}
            onClick={giveMissing}
          >
            Dar onda a quem ainda não tem em {category.categoria}
          </button>
        ) : null}
      </div>
      <FormStatus message={save.error ? errorMessage(save.error) : null} tone="error" />
      <FormStatus message={give.error ? errorMessage(give.error) : null} tone="error" />
      <FormStatus message={saved ? 'Ondas salvas.' : null} tone="success" />
      <FormStatus message={given} tone="success" />
    </form>
  );
}

/**
 * `/painel/eventos/:id/ondas`: start waves by estimated finish time (docs/decisions/0066), per category:
 * each wave takes runners up to its time while it has room, then passes them to the next; the last takes
 * the rest. Runners already placed keep their wave.
 */
export default function WavesPage() {
  const eventId = Number(useParams().id);
  const event = useEvent(eventId);
  const waves = useWaves(eventId);
  return (
    <section className="flex flex-col gap-4">
      <h1 className="text-2xl font-bold">
        Ondas de largada{event.data ? `: ${event.data.nome_evento}` : ''}
      </h1>
      <p className="text-sm">
        Cada inscrito pago entra na primeira onda que comporta o tempo estimado dele e ainda tem vaga; cheia,
        vai para a seguinte. Quem não informa o tempo larga na última onda, que recebe todos os que não
        couberam antes. Quem se inscreveu antes das ondas existirem recebe a sua em "Dar onda a quem ainda não
        tem", dos tempos mais rápidos aos sem tempo.
      </p>
      {waves.error ? <FormStatus message={errorMessage(waves.error)} tone="error" /> : null}
      {waves.data?.map((c) => (
        <CategoryWaves key={c.categoria_id} eventId={eventId} category={c} />
      ))}
    </section>
  );
}
