import { formatStoreDateTime } from '@passada/core/calendar';
import type { PainelTeamQuota, TeamQuotaInput } from '@passada/core/contracts/teams';
import { plural } from '@passada/core/plural';
import { type FormEvent, useState } from 'react';
import {
  FormField,
  FormStatus,
  primaryButtonClass,
  SelectField,
  secondaryButtonClass,
} from '../../../../components/form-field.tsx';
import { ApiRequestError } from '../../../../lib/api.ts';
import { DataTable } from '../../shell/components/data-table.tsx';
import { errorMessage } from '../../shell/utils/error-message.ts';
import { fromLocal } from '../../shell/utils/store-time.ts';
import { useEvent } from '../api/events.ts';
import { useSetTeamQuota, useTeamQuotas } from '../api/teams.ts';

interface Draft {
  codigo: string;
  categoria: string;
  vagas: string;
  ate: string;
}

const EMPTY: Draft = { codigo: '', categoria: '', vagas: '', ate: '' };

/**
 * Places reserved for named teams at the opening (docs/decisions/0076): the list with what the members
 * used, a form to reserve (by the team's code, a distance, how many, until when) and each reserve's end.
 */
export function TeamQuotas({ eventId }: { eventId: number }) {
  const quotas = useTeamQuotas(eventId);
  const event = useEvent(eventId);
  const setQuota = useSetTeamQuota(eventId);
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<{ message: string; tone: 'success' | 'error' } | null>(null);
  const categories = (event.data?.dias_evento ?? []).flatMap((d, _, days) =>
    d.categorias.map((c) => ({
      id: c.id,
      nome: days.length > 1 ? `${c.nome_categoria} (${d.data})` : c.nome_categoria,
    })),
  );

  const send = async (body: TeamQuotaInput, done: string) => {
    setErrors({});
    setStatus(null);
    try {
      await setQuota.mutateAsync(body);
      setStatus({ message: done, tone: 'success' });
      return true;
    } catch (error) {
      if (error instanceof ApiRequestError && error.body?.errors) setErrors(error.body.errors);
      setStatus({ message: errorMessage(error), tone: 'error' });
      return false;
    }
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const body: TeamQuotaInput = {
      codigo: draft.codigo,
      categoria: Number(draft.categoria),
      vagas: Number(draft.vagas),
      ate: draft.ate ? fromLocal(draft.ate) : null,
    };
    if (await send(body, 'Vagas reservadas para a equipe.')) setDraft(EMPTY);
  };

  // Ended now: what the members used stays theirs, nothing more is held from the public.
  const end = (q: PainelTeamQuota) =>
    void send(
      { codigo: q.equipe.codigo, categoria: q.categoria.id, vagas: q.vagas, encerrar: true },
      `Reserva da equipe ${q.equipe.nome} encerrada: as vagas não usadas voltaram para o público.`,
    );

  return (
    <section aria-labelledby="cotas-equipes" className="mb-6">
      <h2 id="cotas-equipes" className="mt-6 mb-2 text-xl font-semibold">
        Vagas reservadas para equipes
      </h2>
      <p className="mb-3 max-w-3xl">
        Os membros da equipe se inscrevem com o código dela, sem esperar a vez na fila nem ser sorteados, até
        as vagas reservadas acabarem ou até a data informada. Os limites por CPF e por comprador valem para
        eles. O público não compra as vagas reservadas enquanto a reserva vale.
      </p>
      <DataTable
        label="Vagas reservadas para equipes"
        rows={quotas.data}
        rowKey={(q) => q.id}
        empty={quotas.isError ? errorMessage(quotas.error) : 'Nenhuma vaga reservada.'}
        columns={[
          { header: 'Equipe', rowHeader: true, cell: (q) => `${q.equipe.nome} (${q.equipe.codigo})` },
          { header: 'Distância', cell: (q) => q.categoria.nome },
          { header: 'Reservadas', cell: (q) => q.vagas },
          { header: 'Usadas', cell: (q) => q.usadas },
          {
            header: 'Até',
            cell: (q) => (q.ate ? formatStoreDateTime(new Date(q.ate)) : 'Até encerrar'),
          },
          {
            header: 'Situação',
            cell: (q) =>
              q.vigente
                ? `Valendo: ${plural(Math.max(0, q.vagas - q.usadas), 'vaga livre', 'vagas livres')}`
                : 'Encerrada',
          },
          {
            header: 'Ações',
            hideHeader: true,
            cell: (q) =>
              q.vigente ? (
                <button
                  type="button"
                  className={secondaryButtonClass}
                  aria-label={`Encerrar a reserva da equipe ${q.equipe.nome} em ${q.categoria.nome}`}
                  onClick={() => end(q)}
                >
                  Encerrar
                </button>
              ) : null,
          },
        ]}
      />
      <form onSubmit={submit} noValidate className="mt-4 grid max-w-2xl gap-3 sm:grid-cols-2">
        <FormField
          label="Código da equipe"
          value={draft.codigo}
          autoComplete="off"
          error={errors.codigo}
          onChange={(e) => setDraft((d) => ({ ...d, codigo: e.target.value }))}
        />
        <SelectField
          label="Distância reservada"
          value={draft.categoria}
          error={errors.categoria}
          onChange={(e) => setDraft((d) => ({ ...d, categoria: e.target.value }))}
        >
          <option value="">Escolha a distância</option>
          {categories.map((c) => (
            <option key={c.id} value={c.id}>
              {c.nome}
            </option>
          ))}
        </SelectField>
        <FormField
          label="Vagas reservadas"
          inputMode="numeric"
          value={draft.vagas}
          error={errors.vagas}
          onChange={(e) => setDraft((d) => ({ ...d, vagas: e.target.value }))}
        />
        <FormField
          label="Reserva vale até (vazio: até encerrar)"
          type="datetime-local"
          value={draft.ate}
          error={errors.ate}
          onChange={(e) => setDraft((d) => ({ ...d, ate: e.target.value }))}
        />
        <div className="sm:col-span-2">
          <button type="submit" className={primaryButtonClass} disabled={setQuota.isPending}>
            Reservar vagas
          </button>
        </div>
      </form>
      <FormStatus message={status?.message ?? null} tone={status?.tone ?? 'success'} />
    </section>
  );
}
