import { formatStoreDateTime } from '@passada/core/calendar';
import {
  LOTTERY_ENTRY_STATE_LABEL,
  LotteryEntryStateSchema,
  type PainelLotteryEntry,
} from '@passada/core/contracts/lottery';
import type { OpeningUpdate, PainelOpening } from '@passada/core/contracts/opening';
import { plural } from '@passada/core/plural';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import {
  FormField,
  FormStatus,
  linkClass,
  primaryButtonClass,
  SelectField,
  secondaryButtonClass,
} from '../../../../components/form-field.tsx';
import { ApiRequestError } from '../../../../lib/api.ts';
import { DataTable } from '../../shell/components/data-table.tsx';
import { Pager } from '../../shell/components/pager.tsx';
import { errorMessage } from '../../shell/utils/error-message.ts';
import { saveFile } from '../../shell/utils/save-file.ts';
import { fromLocal, toLocal } from '../../shell/utils/store-time.ts';
import {
  fetchLotteryEntriesCsv,
  useLotteryEntries,
  useOpeningActions,
  usePainelOpening,
} from '../api/opening.ts';
import { TeamQuotas } from '../components/team-quotas.tsx';

const inHours = (hours: number) => toLocal(new Date(Date.now() + hours * 3_600_000).toISOString());

type Mode = 'nenhum' | 'fila' | 'sorteio';

interface Draft {
  modo: Mode;
  abre_em: string;
  pre_fila_minutos: string;
  admitidos_por_minuto: string;
  minutos_da_vez: string;
  inscricoes_por_cpf: string;
  inscricoes_por_comprador: string;
  inscricoes_de: string;
  inscricoes_ate: string;
  vagas: string;
  horas_para_pagar: string;
}

function draftOf(o: PainelOpening | null): Draft {
  return {
    modo: o?.modo ?? 'nenhum',
    abre_em: o ? toLocal(o.abre_em) : inHours(24),
    pre_fila_minutos: String(o?.pre_fila_minutos ?? 30),
    admitidos_por_minuto: o?.admitidos_por_minuto == null ? '' : String(o.admitidos_por_minuto),
    minutos_da_vez: String(o?.minutos_da_vez ?? 15),
    inscricoes_por_cpf: String(o?.inscricoes_por_cpf ?? 1),
    inscricoes_por_comprador: String(o?.inscricoes_por_comprador ?? 4),
    inscricoes_de: o?.sorteio ? toLocal(o.sorteio.inscricoes_de) : inHours(1),
    inscricoes_ate: o?.sorteio ? toLocal(o.sorteio.inscricoes_ate) : inHours(24 * 7),
    vagas: String(o?.sorteio?.vagas ?? 100),
    horas_para_pagar: String(o?.sorteio?.horas_para_pagar ?? 48),
  };
}

function bodyOf(d: Draft, versao: number | undefined): OpeningUpdate {
  const lottery = d.modo === 'sorteio';
  return {
    modo: lottery ? 'sorteio' : 'fila',
    abre_em: fromLocal(lottery ? d.inscricoes_de : d.abre_em),
    pre_fila_minutos: lottery ? 0 : Number(d.pre_fila_minutos),
    admitidos_por_minuto: d.admitidos_por_minuto.trim() === '' ? null : Number(d.admitidos_por_minuto),
    minutos_da_vez: Number(d.minutos_da_vez),
    inscricoes_por_cpf: lottery ? 1 : Number(d.inscricoes_por_cpf),
    inscricoes_por_comprador: Number(d.inscricoes_por_comprador),
    sorteio: lottery
      ? {
          inscricoes_de: fromLocal(d.inscricoes_de),
          inscricoes_ate: fromLocal(d.inscricoes_ate),
          vagas: Number(d.vagas),
          horas_para_pagar: Number(d.horas_para_pagar),
        }
      : null,
    ...(versao === undefined ? {} : { versao }),
  };
}

function Figure({ label, value }: { label: string; value: number | string }) {
  return (
    <div className="rounded border border-gray-300 p-3 dark:border-gray-700">
      <dt className="text-sm">{label}</dt>
      <dd className="text-2xl font-bold">{value}</dd>
    </div>
  );
}

type EntryState = PainelLotteryEntry['estado'];

/**
 * The lottery's people (docs/decisions/0051): every entry with its state, filtered and searched on the
 * server, paged, with the same list as a CSV. The state and search are kept in the address; the CPF is
 * shown masked.
 */
function LotteryEntries({ eventId }: { eventId: number }) {
  const [params, setParams] = useSearchParams();
  const [search, setSearch] = useState(params.get('busca') ?? '');
  const page = Number(params.get('pagina') ?? '1') || 1;
  const parsed = LotteryEntryStateSchema.safeParse(params.get('estado'));
  const filters = {
    estado: parsed.success ? parsed.data : undefined,
    busca: params.get('busca') ?? undefined,
  };
  const entries = useLotteryEntries(eventId, { ...filters, pagina: page });
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const download = async () => {
    setDownloadError(null);
    const file = await fetchLotteryEntriesCsv(eventId, filters);
    if (file) saveFile(file);
    else setDownloadError(errorMessage(null));
  };
  const set = (key: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    if (key !== 'pagina') next.delete('pagina');
    setParams(next);
  };
  const pages = entries.data ? Math.max(1, Math.ceil(entries.data.count / entries.data.page_size)) : 1;

  return (
    <section aria-labelledby="inscritos-sorteio" className="mb-6">
      <h2 id="inscritos-sorteio" className="mb-2 text-xl font-semibold">
        Inscritos
      </h2>
      <form
        className="mb-3 grid gap-3 md:grid-cols-3"
        onSubmit={(e) => {
          e.preventDefault();
          set('busca', search.trim());
        }}
      >
        <div className="md:col-span-2">
          <FormField
            label="Buscar inscritos (número, nome, e-mail ou CPF)"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
        </div>
        <SelectField
          label="Situação"
          value={filters.estado ?? ''}
          onChange={(e) => set('estado', e.target.value)}
        >
          <option value="">Todas</option>
          {LotteryEntryStateSchema.options.map((s: EntryState) => (
            <option key={s} value={s}>
              {LOTTERY_ENTRY_STATE_LABEL[s]}
            </option>
          ))}
        </SelectField>
      </form>
      <p className="mb-3">
        <button type="button" className={secondaryButtonClass} onClick={download}>
          Exportar inscritos (CSV)
        </button>
      </p>
      <FormStatus message={downloadError} tone="error" />
      {entries.isError ? <p role="alert">{errorMessage(entries.error)}</p> : null}
      <DataTable
        label="Inscritos no sorteio"
        rows={entries.data?.results}
        rowKey={(e) => e.id}
        empty="Nenhum inscrito encontrado."
        columns={[
          { header: 'Nº', rowHeader: true, cell: (e) => e.id },
          {
            header: 'Nome',
            cell: (e) => (
              <>
                {e.nome_completo}
                <span className="block text-xs text-stone-600">{e.cpf_mascarado}</span>
              </>
            ),
          },
          { header: 'Categoria', cell: (e) => e.categoria_nome },
          {
            header: 'Situação',
            cell: (e) =>
              e.estado === 'sorteado' && e.pagar_ate
                ? `${LOTTERY_ENTRY_STATE_LABEL.sorteado} (pagar até ${formatStoreDateTime(new Date(e.pagar_ate))})`
                : LOTTERY_ENTRY_STATE_LABEL[e.estado],
          },
          { header: 'Posição', cell: (e) => e.posicao ?? '—' },
        ]}
      />
      <Pager
        page={page}
        pages={pages}
        label="Páginas de inscritos"
        extra={`(${entries.data?.count ?? 0} ${entries.data?.count === 1 ? 'inscrito' : 'inscritos'})`}
        onPage={(next) => set('pagina', String(next))}
      />
    </section>
  );
}

/**
 * One event's opening (docs/decisions/0046 and 0051): the mode (waiting room, lottery or as usual),
 * its settings, the live view read again every five seconds, the lottery's commitment and draws, and
 * its people.
 */
export default function OpeningPage() {
  const eventId = Number(useParams().id);
  const opening = usePainelOpening(eventId);
  const actions = useOpeningActions(eventId);
  const current = opening.data ?? null;
  const [draft, setDraft] = useState<Draft>(() => draftOf(null));
  const [loadedVersion, setLoadedVersion] = useState<number | null | undefined>(undefined);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<{ message: string; tone: 'success' | 'error' } | null>(null);

  // The form follows the saved settings when they are first read and after each save, never while typing.
  const version = opening.isSuccess ? (current?.versao ?? null) : undefined;
  useEffect(() => {
    if (version !== undefined && version !== loadedVersion) {
      setDraft(draftOf(current));
      setLoadedVersion(version);
    }
  }, [version, loadedVersion, current]);

  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));
  const run = async (action: () => Promise<unknown>, done: string) => {
    setErrors({});
    setStatus(null);
    try {
      await action();
      setStatus({ message: done, tone: 'success' });
    } catch (error) {
      if (error instanceof ApiRequestError && error.body?.errors) setErrors(error.body.errors);
      setStatus({ message: errorMessage(error), tone: 'error' });
    }
  };

  const save = (event: FormEvent) => {
    event.preventDefault();
    if (draft.modo === 'nenhum') {
      if (current)
        void run(
          () => actions.remove.mutateAsync(),
          current.modo === 'fila'
            ? 'Sala de espera encerrada: as inscrições seguem abertas a todos, como sempre.'
            : 'Abertura removida: o evento abre como sempre.',
        );
      return;
    }
    void run(() => actions.save.mutateAsync(bodyOf(draft, current?.versao)), 'Abertura salva.');
  };

  const live = current?.ao_vivo;
  const lottery = current?.modo === 'sorteio' ? current.sorteio : null;
  const fieldError = (key: string) => errors[key] ?? errors[`sorteio.${key}`];

  return (
    <section>
      <p className="mb-2">
        <Link to={`/painel/eventos/${eventId}`} className={linkClass}>
          ← Participantes do evento
        </Link>
      </p>
      <h1 className="mb-4 text-2xl font-bold">Abertura das inscrições</h1>

      {current && live ? (
        <section aria-labelledby="ao-vivo" className="mb-6">
          <h2 id="ao-vivo" className="mb-2 text-xl font-semibold">
            Ao vivo
          </h2>
          <p className="mb-2 text-sm">Atualizado a cada 5 segundos.</p>
          <dl className="grid grid-cols-2 gap-3 sm:grid-cols-5">
            {lottery ? (
              <>
                <Figure label="Inscritos no sorteio" value={lottery.inscritos} />
                <Figure label="Sorteados pagando" value={lottery.aguardando_pagamento} />
                <Figure label="Sorteados que pagaram" value={lottery.pagos} />
                <Figure label="Prazos vencidos" value={lottery.expirados} />
              </>
            ) : (
              <>
                <Figure label="Na fila" value={live.na_fila} />
                <Figure label="Admitidos" value={live.admitidos} />
                <Figure label="Pagando" value={live.pagando} />
                <Figure label="Pagas" value={live.pagas} />
              </>
            )}
            <Figure label="Vagas restantes" value={live.vagas_restantes} />
            {live.vagas_reservadas > 0 ? (
              <Figure
                label="Reservadas (ofertas da lista de espera e cotas de equipes)"
                value={live.vagas_reservadas}
              />
            ) : null}
          </dl>
        </section>
      ) : null}

      {lottery ? (
        <section aria-labelledby="sorteio" className="mb-6">
          <h2 id="sorteio" className="mb-2 text-xl font-semibold">
            Sorteio
          </h2>
          <p className="mb-2">
            Inscrições de {formatStoreDateTime(new Date(lottery.inscricoes_de))} até{' '}
            {formatStoreDateTime(new Date(lottery.inscricoes_ate))}
            {`; ${plural(lottery.vagas, 'vaga', 'vagas')}; quem for sorteado tem ${plural(lottery.horas_para_pagar, 'hora', 'horas')} para pagar.`}
          </p>
          {lottery.compromisso ? (
            <p className="mb-2 break-all">
              Compromisso publicado em {formatStoreDateTime(new Date(lottery.compromisso_em!))}:{' '}
              <code>{lottery.compromisso}</code>
            </p>
          ) : (
            <p className="mb-2">
              Publique o compromisso antes de as inscrições fecharem: ele prova que a semente do sorteio foi
              escolhida antes.
            </p>
          )}
          {lottery.sorteios > 0 ? (
            <p className="mb-2">
              {lottery.sorteios === 1 ? '1 sorteio realizado' : `${lottery.sorteios} sorteios realizados`}, o
              primeiro em {formatStoreDateTime(new Date(lottery.sorteado_em!))}.
            </p>
          ) : null}
          <div className="flex flex-wrap gap-2">
            {lottery.compromisso ? null : (
              <button
                type="button"
                className={secondaryButtonClass}
                onClick={() => run(() => actions.commit.mutateAsync(), 'Compromisso publicado.')}
              >
                Publicar compromisso
              </button>
            )}
            <button
              type="button"
              className={primaryButtonClass}
              onClick={() =>
                run(
                  () => actions.draw.mutateAsync(),
                  lottery.sorteios === 0 ? 'Sorteio realizado.' : 'Novo sorteio realizado.',
                )
              }
            >
              {lottery.sorteios === 0 ? 'Sortear' : 'Sortear vagas não pagas'}
            </button>
          </div>
        </section>
      ) : null}

      <FormStatus message={status?.message ?? null} tone={status?.tone ?? 'success'} />

      {lottery ? <LotteryEntries eventId={eventId} /> : null}

      {current ? <TeamQuotas eventId={eventId} /> : null}

      <h2 className="mt-6 mb-2 text-xl font-semibold">Configuração</h2>
      {loadedVersion === undefined ? (
        <p>{opening.isError ? errorMessage(opening.error) : 'Carregando…'}</p>
      ) : (
        <form onSubmit={save} noValidate className="grid max-w-2xl gap-3 sm:grid-cols-2">
          <SelectField
            label="Modo de abertura"
            value={draft.modo}
            onChange={(e) => set({ modo: e.target.value as Mode })}
          >
            <option value="nenhum">Como sempre (sem fila nem sorteio; encerra uma sala de espera)</option>
            <option value="fila">Ordem de chegada com sala de espera</option>
            <option value="sorteio">Sorteio</option>
          </SelectField>
          {draft.modo === 'fila' ? (
            <>
              <FormField
                label="Abertura (data e hora)"
                type="datetime-local"
                value={draft.abre_em}
                error={fieldError('abre_em')}
                onChange={(e) => set({ abre_em: e.target.value })}
              />
              <FormField
                label="Pré-fila (minutos antes da abertura)"
                inputMode="numeric"
                value={draft.pre_fila_minutos}
                error={fieldError('pre_fila_minutos')}
                onChange={(e) => set({ pre_fila_minutos: e.target.value })}
              />
              <FormField
                label="Admitidos por minuto (vazio: automático)"
                inputMode="numeric"
                value={draft.admitidos_por_minuto}
                error={fieldError('admitidos_por_minuto')}
                onChange={(e) => set({ admitidos_por_minuto: e.target.value })}
              />
              <FormField
                label="Duração da vez (minutos)"
                inputMode="numeric"
                value={draft.minutos_da_vez}
                error={fieldError('minutos_da_vez')}
                onChange={(e) => set({ minutos_da_vez: e.target.value })}
              />
              <FormField
                label="Inscrições por CPF"
                inputMode="numeric"
                value={draft.inscricoes_por_cpf}
                error={fieldError('inscricoes_por_cpf')}
                onChange={(e) => set({ inscricoes_por_cpf: e.target.value })}
              />
              <FormField
                label="Inscrições por comprador"
                inputMode="numeric"
                value={draft.inscricoes_por_comprador}
                error={fieldError('inscricoes_por_comprador')}
                onChange={(e) => set({ inscricoes_por_comprador: e.target.value })}
              />
            </>
          ) : null}
          {draft.modo === 'sorteio' ? (
            <>
              <FormField
                label="Inscrições no sorteio a partir de"
                type="datetime-local"
                value={draft.inscricoes_de}
                error={fieldError('inscricoes_de')}
                onChange={(e) => set({ inscricoes_de: e.target.value })}
              />
              <FormField
                label="Inscrições no sorteio até"
                type="datetime-local"
                value={draft.inscricoes_ate}
                error={fieldError('inscricoes_ate')}
                onChange={(e) => set({ inscricoes_ate: e.target.value })}
              />
              <FormField
                label="Vagas sorteadas"
                inputMode="numeric"
                value={draft.vagas}
                error={fieldError('vagas')}
                onChange={(e) => set({ vagas: e.target.value })}
              />
              <FormField
                label="Prazo para o sorteado pagar (horas)"
                inputMode="numeric"
                value={draft.horas_para_pagar}
                error={fieldError('horas_para_pagar')}
                onChange={(e) => set({ horas_para_pagar: e.target.value })}
              />
              <FormField
                label="Inscrições por comprador"
                inputMode="numeric"
                value={draft.inscricoes_por_comprador}
                error={fieldError('inscricoes_por_comprador')}
                onChange={(e) => set({ inscricoes_por_comprador: e.target.value })}
              />
            </>
          ) : null}
          <div className="sm:col-span-2">
            <button type="submit" className={primaryButtonClass}>
              Salvar abertura
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
