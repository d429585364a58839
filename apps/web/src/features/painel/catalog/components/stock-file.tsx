import type { StockFilePreviewResult, StockReason } from '@passada/core/contracts/painel';
import { type FormEvent, useState } from 'react';
import {
  FormField,
  FormStatus,
  primaryButtonClass,
  SelectField,
  secondaryButtonClass,
} from '../../../../components/form-field.tsx';
import { DataTable } from '../../shell/components/data-table.tsx';
import { errorMessage } from '../../shell/utils/error-message.ts';
import { saveFile } from '../../shell/utils/save-file.ts';
import { fetchStockCsv, useStockBatch, useStockFilePreview } from '../api/stock.ts';
import { StockReasonFields } from './stock-reason-fields.tsx';

type Mode = 'ajustar' | 'definir';
type Status = { message: string; tone: 'success' | 'error' } | null;

/**
 * The stock as a file (decision 0081): export every colour × size with its SKU, count or receive in a
 * spreadsheet, send it back, see every line that would change (and every line that cannot be read)
 * before anything is written, then apply the lines seen. A count whose line sold meanwhile is refused
 * whole and checked again.
 */
export function StockFile() {
  const preview = useStockFilePreview();
  const batch = useStockBatch();
  const [mode, setMode] = useState<Mode>('definir');
  const [reason, setReason] = useState<StockReason>('inventario');
  const [note, setNote] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [seen, setSeen] = useState<StockFilePreviewResult | null>(null);
  const [status, setStatus] = useState<Status>(null);

  const download = async () => {
    const csv = await fetchStockCsv();
    if (csv) saveFile(csv);
    else setStatus({ message: errorMessage(null), tone: 'error' });
  };
  const check = async (event: FormEvent) => {
    event.preventDefault();
    setStatus(null);
    setSeen(null);
    if (!file) {
      setStatus({ message: 'Escolha o arquivo de estoque.', tone: 'error' });
      return;
    }
    try {
      setSeen(await preview.mutateAsync({ modo: mode, arquivo: await file.text() }));
    } catch (error) {
      setStatus({ message: errorMessage(error), tone: 'error' });
    }
  };
  const apply = async () => {
    if (!seen) return;
    try {
      const answer = await batch.mutateAsync({
        modo: mode,
        motivo: reason,
        observacao: note,
        linhas: seen.linhas.map((l) => ({
          product_id: l.product_id,
          color_id: l.color_id,
          size_id: l.size_id,
          quantidade: mode === 'definir' ? l.depois : l.diferenca,
          // A count replaces what is there: refused if a sale moved the line since it was checked.
          ...(mode === 'definir' ? { antes: l.antes } : {}),
        })),
      });
      setSeen(null);
      const n = answer.linhas.length;
      setStatus({
        message: `Estoque atualizado em ${n} ${n === 1 ? 'combinação' : 'combinações'}.`,
        tone: 'success',
      });
    } catch (error) {
      setStatus({ message: errorMessage(error), tone: 'error' });
    }
  };
  const changeMode = (next: Mode) => {
    setMode(next);
    setReason(next === 'definir' ? 'inventario' : 'entrada');
    setSeen(null);
  };

  return (
    <section aria-labelledby="arquivo-estoque-titulo" className="mt-8">
      <h2 id="arquivo-estoque-titulo" className="mb-1 text-xl font-semibold">
        Arquivo de estoque
      </h2>
      <p className="mb-2 max-w-2xl text-sm text-stone-600 dark:text-stone-400">
        Exporte o estoque, conte ou lance a entrada na planilha (colunas SKU e Estoque, ou SKU e Quantidade) e
        envie o arquivo de volta: cada mudança aparece para conferir antes de ser aplicada.
      </p>
      <button type="button" className={secondaryButtonClass} onClick={() => void download()}>
        Exportar estoque (CSV)
      </button>
      <form
        onSubmit={check}
        aria-label="Importar arquivo de estoque"
        className="mt-3 flex flex-wrap items-end gap-3"
      >
        <SelectField label="O arquivo traz" value={mode} onChange={(e) => changeMode(e.target.value as Mode)}>
          <option value="definir">A contagem (substitui o estoque)</option>
          <option value="ajustar">A entrada (soma ao estoque)</option>
        </SelectField>
        <StockReasonFields
          reasonLabel="Motivo"
          reason={reason}
          onReason={setReason}
          noteLabel="Observação"
          note={note}
          onNote={setNote}
        />
        <FormField
          label="Arquivo de estoque (CSV)"
          type="file"
          accept=".csv,.txt,text/csv,text/plain"
          onChange={(e) => {
            setFile(e.target.files?.[0] ?? null);
            setSeen(null);
          }}
        />
        <button type="submit" className={secondaryButtonClass} disabled={preview.isPending}>
          Conferir arquivo
        </button>
      </form>
      {seen ? (
        <div className="mt-4">
          {seen.problemas.length > 0 ? (
            <div role="alert" className="mb-3">
              <p className="font-medium text-red-700 dark:text-red-400">
                {seen.problemas.length === 1
                  ? '1 linha não pode ser aplicada:'
                  : `${seen.problemas.length} linhas não podem ser aplicadas:`}
              </p>
              <ul className="list-disc pl-6 text-sm">
                {seen.problemas.map((p) => (
                  <li key={p}>{p}</li>
                ))}
              </ul>
            </div>
          ) : null}
          <p className="mb-2 text-sm">
            {seen.linhas.length} {seen.linhas.length === 1 ? 'mudança' : 'mudanças'}
            {seen.sem_mudanca ? `; ${seen.sem_mudanca} sem mudança` : ''}.
          </p>
          <DataTable
            label="Mudanças do arquivo"
            rows={seen.linhas}
            rowKey={(l) => l.sku}
            empty="O arquivo não muda nenhum estoque."
            columns={[
              { header: 'SKU', rowHeader: true, cell: (l) => l.sku },
              { header: 'Produto', cell: (l) => l.produto },
              { header: 'Cor', cell: (l) => l.cor },
              { header: 'Tamanho', cell: (l) => l.tamanho },
              { header: 'Antes', cell: (l) => l.antes },
              { header: 'Depois', cell: (l) => l.depois },
            ]}
          />
          {seen.linhas.length > 0 ? (
            <button
              type="button"
              className={`${primaryButtonClass} mt-3`}
              disabled={batch.isPending}
              onClick={() => void apply()}
            >
              {`Aplicar ${seen.linhas.length} ${seen.linhas.length === 1 ? 'mudança' : 'mudanças'}`}
            </button>
          ) : null}
        </div>
      ) : null}
      <FormStatus message={status?.message ?? null} tone={status?.tone ?? 'success'} />
    </section>
  );
}
