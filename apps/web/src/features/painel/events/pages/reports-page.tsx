import { PAYMENT_METHOD_LABEL } from '@passada/core/contracts/orders';
import type { EventReport } from '@passada/core/contracts/painel-reports';
import { formatIsoDateBR } from '@passada/core/events';
import { useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import { FormStatus, SelectField, secondaryButtonClass } from '../../../../components/form-field.tsx';
import { formatReais } from '../../../../components/price.tsx';
import { DataTable } from '../../shell/components/data-table.tsx';
import { errorMessage } from '../../shell/utils/error-message.ts';
import { saveFile } from '../../shell/utils/save-file.ts';
import { fetchEventReportCsv, useEventReport, useEventsMoney } from '../api/reports.ts';

const card = 'rounded-lg border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900';

/**
 * Reports (docs/decisions/0039): every event's money, and one event's in detail (per payment method,
 * per lot, registrations per day as a chart and as a table, and the CSV of the figures).
 */
export default function ReportsPage() {
  const [params, setParams] = useSearchParams();
  const events = useEventsMoney();
  const chosen = Number(params.get('evento')) || null;
  return (
    <section className="flex flex-col gap-4">
      <h1 className="text-2xl font-bold">Relatórios</h1>
      {events.isError ? <p role="alert">{errorMessage(events.error)}</p> : null}
      <div className={card}>
        <h2 className="mb-2 text-lg font-semibold">Dinheiro por evento</h2>
        <DataTable
          label="Dinheiro por evento"
          rows={events.data}
          rowKey={(e) => e.evento_id}
          empty="Nenhum evento cadastrado."
          columns={[
            { header: 'Evento', rowHeader: true, cell: (e) => e.evento },
            { header: 'Data', cell: (e) => formatIsoDateBR(e.data) },
            { header: 'Inscrições', cell: (e) => e.inscricoes },
            { header: 'Canceladas', cell: (e) => e.canceladas },
            { header: 'Bruto', cell: (e) => formatReais(e.bruto) },
            { header: 'Devolvido', cell: (e) => formatReais(e.devolvido) },
            { header: 'Líquido', cell: (e) => formatReais(e.liquido) },
          ]}
        />
      </div>
      <div className={card}>
        <SelectField
          label="Evento do relatório"
          value={chosen ?? ''}
          onChange={(e) => setParams(e.target.value ? { evento: e.target.value } : {})}
        >
          <option value="">Escolha um evento</option>
          {events.data?.map((e) => (
            <option key={e.evento_id} value={e.evento_id}>
              {e.evento} ({formatIsoDateBR(e.data)})
            </option>
          ))}
        </SelectField>
      </div>
      {chosen ? <EventReportView id={chosen} /> : null}
    </section>
  );
}

function EventReportView({ id }: { id: number }) {
  const report = useEventReport(id);
  const [downloadError, setDownloadError] = useState<string | null>(null);
  if (report.isPending) return <p role="status">Carregando relatório…</p>;
  if (report.isError) return <p role="alert">{errorMessage(report.error)}</p>;
  const r = report.data;
  const download = async () => {
    setDownloadError(null);
    const file = await fetchEventReportCsv(id);
    if (file) saveFile(file);
    else setDownloadError(errorMessage(null));
  };
  const figures = [
    ['Bruto', r.bruto],
    ['Devolvido', r.devolvido],
    ['Líquido', r.liquido],
  ] as const;
  return (
    <div className="flex flex-col gap-4">
      <h2 className="text-xl font-semibold">{r.evento}</h2>
      <dl className="grid gap-4 sm:grid-cols-4">
        {figures.map(([label, value]) => (
          <div key={label} className={card}>
            <dt className="text-sm text-stone-600 dark:text-stone-400">{label}</dt>
            <dd className="text-2xl font-bold">{formatReais(value)}</dd>
          </div>
        ))}
        <div className={card}>
          <dt className="text-sm text-stone-600 dark:text-stone-400">Inscrições</dt>
          <dd className="text-2xl font-bold">
            {r.inscricoes}
            <span className="block text-sm font-normal">
              {r.canceladas} {r.canceladas === 1 ? 'cancelada' : 'canceladas'}
            </span>
          </dd>
        </div>
      </dl>
      <p>
        <button type="button" className={secondaryButtonClass} onClick={download}>
          Exportar relatório (CSV)
        </button>
      </p>
      <FormStatus message={downloadError} tone="error" />
      <div className={card}>
        <h3 className="mb-2 font-semibold">Por forma de pagamento</h3>
        <DataTable
          label="Dinheiro por forma de pagamento"
          rows={r.por_metodo}
          rowKey={(m) => m.metodo}
          empty="Nenhuma inscrição."
          columns={[
            { header: 'Forma de pagamento', rowHeader: true, cell: (m) => PAYMENT_METHOD_LABEL[m.metodo] },
            { header: 'Inscrições', cell: (m) => m.inscricoes },
            { header: 'Canceladas', cell: (m) => m.canceladas },
            { header: 'Bruto', cell: (m) => formatReais(m.bruto) },
            { header: 'Devolvido', cell: (m) => formatReais(m.devolvido) },
            { header: 'Líquido', cell: (m) => formatReais(m.liquido) },
          ]}
        />
      </div>
      <div className={card}>
        <h3 className="mb-2 font-semibold">Por lote</h3>
        <p className="mb-2 text-sm text-stone-600 dark:text-stone-400">
          O que as inscrições de cada categoria pagaram, antes dos cupons (descontos de cupons:{' '}
          {formatReais(r.descontos)}); uma inscrição que trocou de distância conta na nova pelo valor da
          venda. Transferências e trocas de distância pagas à parte (taxas e diferenças):{' '}
          {formatReais(r.pos_venda)}. Vagas compradas por equipes (capitães e empresas):{' '}
          {formatReais(r.vagas_equipe)}. A soma das linhas, menos os descontos, mais o pós-venda e as vagas de
          equipes, é o bruto.
        </p>
        <DataTable
          label="Vendas por lote"
          rows={r.por_lote}
          rowKey={(l) => `${l.categoria}-${l.lote ?? ''}`}
          empty="Nenhuma inscrição."
          columns={[
            { header: 'Categoria', rowHeader: true, cell: (l) => l.categoria },
            { header: 'Lote', cell: (l) => l.lote ?? 'Preço da categoria' },
            { header: 'Inscrições', cell: (l) => l.inscricoes },
            { header: 'Canceladas', cell: (l) => l.canceladas },
            { header: 'Valor', cell: (l) => formatReais(l.valor) },
          ]}
        />
      </div>
      <div className={card}>
        <h3 className="mb-2 font-semibold">Por preço</h3>
        <p className="mb-2 text-sm text-stone-600 dark:text-stone-400">
          Cada preço especial (estudante, professor, PCD, lista do organizador), a meia-entrada 60+ e o preço
          do lote; a soma é a mesma da tabela por lote.
        </p>
        <DataTable
          label="Vendas por preço"
          rows={r.por_regra}
          rowKey={(p) => `${p.regra_id ?? ''}-${p.regra}`}
          empty="Nenhuma inscrição."
          columns={[
            { header: 'Preço', rowHeader: true, cell: (p) => p.regra },
            { header: 'Inscrições', cell: (p) => p.inscricoes },
            { header: 'Canceladas', cell: (p) => p.canceladas },
            { header: 'Valor', cell: (p) => formatReais(p.valor) },
          ]}
        />
      </div>
      <div className={card}>
        <h3 className="mb-2 font-semibold">Inscrições por dia</h3>
        <PerDayChart days={r.por_dia} />
        <DataTable
          label="Inscrições por dia"
          rows={r.por_dia}
          rowKey={(d) => d.dia}
          empty="Nenhuma inscrição."
          columns={[
            { header: 'Dia', rowHeader: true, cell: (d) => formatIsoDateBR(d.dia) },
            { header: 'Inscrições', cell: (d) => d.inscricoes },
            { header: 'Canceladas depois', cell: (d) => d.canceladas },
          ]}
        />
      </div>
    </div>
  );
}

/**
 * Registrations per day as bars, in plain SVG: a title and a description name it for screen
 * readers, and the table below it carries the same numbers.
 */
function PerDayChart({ days }: { days: EventReport['por_dia'] }) {
  const titleId = useId();
  const descId = useId();
  if (!days.length) return null;
  const max = Math.max(1, ...days.map((d) => d.inscricoes));
  const width = 640;
  const height = 200;
  const pad = 24;
  const step = (width - pad) / days.length;
  const bar = Math.max(2, step * 0.7);
  const total = days.reduce((s, d) => s + d.inscricoes, 0);
  const peak = days.reduce((best, d) => (d.inscricoes > best.inscricoes ? d : best), days[0]!);
  return (
    <svg
      role="img"
      aria-labelledby={`${titleId} ${descId}`}
      viewBox={`0 0 ${width} ${height + pad}`}
      className="mb-4 h-auto w-full max-w-2xl text-brand-700"
    >
      <title id={titleId}>Inscrições por dia</title>
      <desc id={descId}>
        {`${total} inscrições de ${formatIsoDateBR(days[0]!.dia)} a ${formatIsoDateBR(days[days.length - 1]!.dia)}; o dia com mais foi ${formatIsoDateBR(peak.dia)}, com ${peak.inscricoes}. Os números de cada dia estão na tabela abaixo.`}
      </desc>
      <line x1={pad} y1={height} x2={width} y2={height} stroke="currentColor" strokeWidth={1} />
      <text x={0} y={12} fontSize={12} fill="currentColor">
        {max}
      </text>
      <text x={0} y={height} fontSize={12} fill="currentColor">
        0
      </text>
      {days.map((d, i) => {
        const h = (d.inscricoes / max) * (height - 16);
        return (
          <rect
            key={d.dia}
            x={pad + i * step + (step - bar) / 2}
            y={height - h}
            width={bar}
            height={h}
            fill="currentColor"
          />
        );
      })}
      <text x={pad} y={height + 18} fontSize={12} fill="currentColor">
        {formatIsoDateBR(days[0]!.dia)}
      </text>
      <text x={width} y={height + 18} fontSize={12} fill="currentColor" textAnchor="end">
        {formatIsoDateBR(days[days.length - 1]!.dia)}
      </text>
    </svg>
  );
}
