import type { ResultPreview, ResultPublish } from '@passada/core/contracts/results';
import { RESULT_STATUS_LABEL, RESULT_STATUSES } from '@passada/core/results';
import { type FormEvent, useState } from 'react';
import { Link, useParams } from 'react-router';
import {
  FormField,
  FormStatus,
  linkClass,
  primaryButtonClass,
  SelectField,
  secondaryButtonClass,
} from '../../../../components/form-field.tsx';
import { errorMessage } from '../../shell/utils/error-message.ts';
import { useEvent } from '../api/events.ts';
import { useImportResults, usePublishResults, useSaveTimer, useTimers } from '../api/results.ts';
import { CertificateDesignForm } from '../components/certificate-design.tsx';
import { RacePhotosForm } from '../components/race-photos.tsx';
import { ResultLinksForm } from '../components/result-links.tsx';

const card = 'rounded-lg border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900';

/** A new timer: its name and the titles of the columns its files use (docs/decisions/0064). */
function NewTimer({ onSaved }: { onSaved: (id: number) => void }) {
  const save = useSaveTimer();
  const [name, setName] = useState('');
  const [bib, setBib] = useState('Peito');
  const [gun, setGun] = useState('Tempo bruto');
  const [net, setNet] = useState('Tempo líquido');
  const [status, setStatus] = useState('Situação');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const timer = await save
      .mutateAsync({
        nome: name,
        colunas: {
          numero: bib,
          tempo_bruto: gun,
          tempo_liquido: net.trim() || null,
          situacao: status.trim() || null,
        },
      })
      .catch(() => null);
    if (timer) onSaved(timer.id);
  };
  return (
    <form onSubmit={submit} aria-label="Nova cronometragem" className="grid gap-2 sm:grid-cols-2">
      <FormField
        label="Nome da cronometragem"
        value={name}
        onChange={(e) => setName(e.target.value)}
        required
      />
      <FormField
        label="Coluna do número de peito"
        value={bib}
        onChange={(e) => setBib(e.target.value)}
        required
      />
      <FormField
        label="Coluna do tempo bruto"
        value={gun}
        onChange={(e) => setGun(e.target.value)}
        required
      />
      <FormField
        label="Coluna do tempo líquido (opcional)"
        value={net}
        onChange={(e) => setNet(e.target.value)}
      />
      <FormField
        label="Coluna da situação (opcional)"
        value={status}
        onChange={(e) => setStatus(e.target.value)}
      />
      <div className="flex items-end">
        <button type="submit" className={secondaryButtonClass} disabled={save.isPending}>
          Salvar cronometragem
        </button>
      </div>
      <FormStatus message={save.error ? errorMessage(save.error) : null} tone="error" />
    </form>
  );
}

/** What a file would publish: the lines read, by status, and every line that matches no runner, and why. */
function Preview({ preview }: { preview: ResultPreview }) {
  return (
    <div className="flex flex-col gap-2">
      <p role="status">
        {`${preview.validas} de ${preview.linhas} linha(s) prontas para publicar`}
        {` (${RESULT_STATUSES.map((s) => `${RESULT_STATUS_LABEL[s]}: ${preview.por_situacao[s] ?? 0}`).join(', ')}).`}
      </p>
      {preview.problemas.length ? (
        <table className="text-sm">
          <caption className="text-left font-semibold">Linhas sem participante</caption>
          <thead>
            <tr>
              <th scope="col" className="text-left">
                Linha
              </th>
              <th scope="col" className="text-left">
                Número
              </th>
              <th scope="col" className="text-left">
                Motivo
              </th>
            </tr>
          </thead>
          <tbody>
            {preview.problemas.map((p) => (
              <tr key={`${p.linha}-${p.codigo}`}>
                <td>{p.linha}</td>
                <td>{p.numero}</td>
                <td>{p.motivo}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p>Todas as linhas encontraram um participante.</p>
      )}
    </div>
  );
}

/**
 * `/painel/eventos/:id/resultados`: the timer's file read into a preview (nothing public yet), then
 * published, replacing the event's results of that day (docs/decisions/0064).
 */
export default function ResultsPage() {
  const eventId = Number(useParams().id);
  const event = useEvent(eventId);
  const timers = useTimers();
  const importFile = useImportResults(eventId);
  const publish = usePublishResults(eventId);
  const [timer, setTimer] = useState<number | null>(null);
  const [day, setDay] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<ResultPreview | null>(null);
  const [published, setPublished] = useState<ResultPublish | null>(null);
  const [newTimer, setNewTimer] = useState(false);
  const chosen = timer ?? timers.data?.[0]?.id ?? null;

  const read = async (e: FormEvent) => {
    e.preventDefault();
    if (!file || chosen === null) return;
    setPublished(null);
    const answer = await importFile
      .mutateAsync({
        cronometragem: chosen,
        nome_arquivo: file.name,
        conteudo: await file.text(),
        ...(day ? { dia: day } : {}),
      })
      .catch(() => null);
    setPreview(answer);
  };
  const go = async () => {
    if (!preview) return;
    const done = await publish.mutateAsync(preview.id).catch(() => null);
    if (done) setPublished(done);
  };

  return (
    <section className="flex flex-col gap-4">
      <h1 className="text-2xl font-bold">Resultados{event.data ? `: ${event.data.nome_evento}` : ''}</h1>
      <p>
        <Link to={`/eventos/resultados/${eventId}`} className={linkClass}>
          Ver a página pública de resultados
        </Link>
      </p>
      <div className={card}>
        <h2 className="mb-2 font-semibold">1. Cronometragem</h2>
        {timers.data?.length ? (
          <SelectField
            label="Cronometragem do arquivo"
            value={chosen ?? ''}
            onChange={(e) => setTimer(Number(e.target.value))}
          >
            {timers.data.map((t) => (
              <option key={t.id} value={t.id}>
                {`${t.nome} (peito: ${t.colunas.numero}; bruto: ${t.colunas.tempo_bruto})`}
              </option>
            ))}
          </SelectField>
        ) : (
          <p>Nenhuma cronometragem cadastrada ainda.</p>
        )}
        <button
          type="button"
          className={`${secondaryButtonClass} mt-2`}
          aria-expanded={newTimer}
          onClick={() => setNewTimer(!newTimer)}
        >
          Cadastrar cronometragem
        </button>
        {newTimer ? (
          <NewTimer
            onSaved={(id) => {
              setTimer(id);
              setNewTimer(false);
            }}
          />
        ) : null}
      </div>
      <form onSubmit={read} className={card} aria-label="Importar o arquivo da cronometragem">
        <h2 className="mb-2 font-semibold">2. Arquivo</h2>
        <FormField
          label="Arquivo da cronometragem (CSV ou TXT)"
          type="file"
          accept=".csv,.txt,text/csv,text/plain"
          onChange={(e) => setFile(e.target.files?.[0] ?? null)}
        />
        <FormField
          label="Dia da prova (se o evento tem mais de um)"
          type="date"
          value={day}
          onChange={(e) => setDay(e.target.value)}
        />
        <button
          type="submit"
          className={`${secondaryButtonClass} mt-2`}
          disabled={!file || chosen === null || importFile.isPending}
        >
          Ler o arquivo (prévia)
        </button>
        <FormStatus message={importFile.error ? errorMessage(importFile.error) : null} tone="error" />
      </form>
      {preview ? (
        <div className={card}>
          <h2 className="mb-2 font-semibold">3. Prévia e publicação</h2>
          <Preview preview={preview} />
          <button
            type="button"
            className={`${primaryButtonClass} mt-2`}
            disabled={publish.isPending}
            onClick={go}
          >
            Publicar resultados
          </button>
          <FormStatus message={publish.error ? errorMessage(publish.error) : null} tone="error" />
          <FormStatus
            message={
              published
                ? `Resultados publicados: ${published.publicados} linha(s); ${published.ignorados} ignorada(s); ${published.substituidos} resultado(s) anteriores substituídos.`
                : null
            }
            tone="success"
          />
        </div>
      ) : null}
      <ResultLinksForm eventId={eventId} className={card} />
      <CertificateDesignForm eventId={eventId} className={card} />
      <RacePhotosForm eventId={eventId} className={card} />
    </section>
  );
}
