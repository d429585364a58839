import { formatIsoDateBR } from '@passada/core/calendar';
import type { PainelPriceRule, PriceRuleInput } from '@passada/core/contracts/price-rules';
import {
  PRICE_RULE_AUDIENCE_LABELS,
  PRICE_RULE_AUDIENCES,
  PRICE_RULE_DISCOUNTS,
  type PriceRuleAudience,
  type PriceRuleDiscount,
} from '@passada/core/price-rules';
import { type FormEvent, useId, useState } from 'react';
import { useParams } from 'react-router';
import {
  FormField,
  FormStatus,
  primaryButtonClass,
  SelectField,
  secondaryButtonClass,
} from '../../../../components/form-field.tsx';
import { formatReais } from '../../../../components/price.tsx';
import { errorMessage, fieldErrors } from '../../shell/utils/error-message.ts';
import { useEvent } from '../api/events.ts';
import {
  useArchivePriceRule,
  useImportPriceRuleList,
  usePriceRules,
  useSavePriceRule,
} from '../api/price-rules.ts';

const card = 'rounded-lg border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900';

const DISCOUNT_LABELS: Record<PriceRuleDiscount, string> = {
  meia: 'Meia (metade do lote)',
  preco_fixo: 'Preço fixo',
  gratis: 'Gratuita',
};

const blank = {
  categoria: '',
  publico: 'estudante',
  nome: '',
  desconto: 'meia',
  preco_fixo: '',
  limite_vagas: '',
  limite_percentual: '',
  ate: '',
  exige_comprovante: true,
  prazo_analise_horas: '72',
};
type Draft = typeof blank & { publico: string; desconto: string };

const numberOrNull = (v: string) => (v.trim() === '' ? null : Number(v.replace(',', '.')));

/**
 * `/painel/eventos/:id/precos` (docs/decisions/0068): the event's special prices by audience: students,
 * teachers, PCD or a list of CPFs (a club, a social quota), half price, a fixed price or free, with a cap
 * in places or per cent of the category and a last day; a list's CPFs come from a CSV.
 */
export default function PriceRulesPage() {
  const eventId = Number(useParams().id);
  const event = useEvent(eventId);
  const rules = usePriceRules(eventId);
  const save = useSavePriceRule(eventId);
  const [draft, setDraft] = useState<Draft>(blank);
  const [saved, setSaved] = useState<string | null>(null);
  const categories = event.data?.dias_evento.flatMap((d) => d.categorias) ?? [];
  const errors = fieldErrors(save.error);
  const set = (patch: Partial<Draft>) => {
    setSaved(null);
    setDraft((d) => ({ ...d, ...patch }));
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const body: PriceRuleInput = {
      categoria: Number(draft.categoria),
      publico: draft.publico as PriceRuleAudience,
      nome: draft.nome,
      desconto: draft.desconto as PriceRuleDiscount,
      preco_fixo: draft.desconto === 'preco_fixo' ? numberOrNull(draft.preco_fixo) : null,
      limite_vagas: numberOrNull(draft.limite_vagas),
      limite_percentual: numberOrNull(draft.limite_percentual),
      ate: draft.ate || null,
      exige_comprovante: draft.exige_comprovante,
      prazo_analise_horas: Number(draft.prazo_analise_horas) || 72,
    };
    const answer = await save.mutateAsync({ id: null, body }).catch(() => null);
    if (answer) {
      setDraft(blank);
      setSaved(`Preço especial "${body.nome}" criado.`);
    }
  };
  return (
    <section className="flex flex-col gap-4">
      <h1 className="text-2xl font-bold">
        Preços especiais{event.data ? `: ${event.data.nome_evento}` : ''}
      </h1>
      <p className="text-sm">
        A meia-entrada 60+ vale sempre, pela data de nascimento. Aqui ficam os outros preços por público: quem
        escolhe um envia o comprovante antes de pagar, e a equipe confere em "Comprovantes". O limite em vagas
        ou em porcentagem da categoria (ex.: 40% da meia-entrada) vale mesmo com muitas inscrições ao mesmo
        tempo.
      </p>
      {rules.error ? <FormStatus message={errorMessage(rules.error)} tone="error" /> : null}
      {rules.data?.length === 0 ? <p>Nenhum preço especial neste evento.</p> : null}
      {rules.data?.map((rule) => (
        <RuleCard key={rule.id} eventId={eventId} rule={rule} />
      ))}
      <form onSubmit={(e) => void submit(e)} className={`${card} grid gap-3 md:grid-cols-2`} noValidate>
        <h2 className="text-lg font-semibold md:col-span-2">Novo preço especial</h2>
        <SelectField
          label="Categoria"
          value={draft.categoria}
          onChange={(e) => set({ categoria: e.target.value })}
          error={errors.categoria}
        >
          <option value="">Escolha a categoria</option>
          {categories.map((c) => (
            <option key={c.id} value={c.id}>
              {c.nome_categoria}
            </option>
          ))}
        </SelectField>
        <SelectField label="Público" value={draft.publico} onChange={(e) => set({ publico: e.target.value })}>
          {PRICE_RULE_AUDIENCES.map((a) => (
            <option key={a} value={a}>
              {PRICE_RULE_AUDIENCE_LABELS[a]}
            </option>
          ))}
        </SelectField>
        <FormField
          label="Nome mostrado ao corredor"
          value={draft.nome}
          onChange={(e) => set({ nome: e.target.value })}
          error={errors.nome}
        />
        <SelectField
          label="Desconto"
          value={draft.desconto}
          onChange={(e) => set({ desconto: e.target.value })}
        >
          {PRICE_RULE_DISCOUNTS.map((d) => (
            <option key={d} value={d}>
              {DISCOUNT_LABELS[d]}
            </option>
          ))}
        </SelectField>
        {draft.desconto === 'preco_fixo' ? (
          <FormField
            label="Preço fixo (R$)"
            inputMode="decimal"
            value={draft.preco_fixo}
            onChange={(e) => set({ preco_fixo: e.target.value })}
            error={errors.preco_fixo}
          />
        ) : null}
        <FormField
          label="Limite de vagas (opcional)"
          inputMode="numeric"
          value={draft.limite_vagas}
          onChange={(e) => set({ limite_vagas: e.target.value })}
          error={errors.limite_vagas}
        />
        <FormField
          label="Limite em % da categoria (opcional)"
          inputMode="numeric"
          value={draft.limite_percentual}
          onChange={(e) => set({ limite_percentual: e.target.value })}
          error={errors.limite_percentual}
        />
        <FormField
          label="Válido até (opcional)"
          type="date"
          value={draft.ate}
          onChange={(e) => set({ ate: e.target.value })}
          error={errors.ate}
        />
        <FormField
          label="Prazo da análise do comprovante (horas)"
          inputMode="numeric"
          value={draft.prazo_analise_horas}
          onChange={(e) => set({ prazo_analise_horas: e.target.value })}
          error={errors.prazo_analise_horas}
        />
        <label className="flex items-center gap-2 text-sm md:col-span-2">
          <input
            type="checkbox"
            checked={draft.exige_comprovante}
            onChange={(e) => set({ exige_comprovante: e.target.checked })}
          />
          Pede comprovante (foto ou PDF do documento)
        </label>
        <div className="flex flex-wrap items-center gap-3 md:col-span-2">
          <button type="submit" className={primaryButtonClass} disabled={save.isPending}>
            Criar preço especial
          </button>
          <FormStatus
            message={save.error && !Object.keys(errors).length ? errorMessage(save.error) : saved}
            tone={save.error ? 'error' : 'success'}
          />
        </div>
      </form>
    </section>
  );
}

function RuleCard({ eventId, rule }: { eventId: number; rule: PainelPriceRule }) {
  const titleId = useId();
  const archive = useArchivePriceRule(eventId);
  const importList = useImportPriceRuleList(eventId);
  const [imported, setImported] = useState<string | null>(null);
  const price =
    rule.desconto === 'preco_fixo' ? formatReais(rule.preco_fixo ?? 0) : DISCOUNT_LABELS[rule.desconto];
  const readCsv = async (file: File | undefined) => {
    setImported(null);
    if (!file) return;
    const answer = await importList.mutateAsync({ id: rule.id, csv: await file.text() }).catch(() => null);
    if (answer)
      setImported(
        `${answer.cpfs} CPF${answer.cpfs === 1 ? '' : 's'} na lista.` +
          (answer.recusadas.length
            ? ` Linhas recusadas: ${answer.recusadas.map((r) => `${r.linha} (${r.motivo})`).join('; ')}.`
            : ''),
      );
  };
  return (
    <article aria-labelledby={titleId} className={card}>
      <h2 id={titleId} className="text-lg font-semibold">
        {rule.nome}
        {rule.arquivada ? ' (arquivado)' : ''}
      </h2>
      <p className="text-sm">
        {rule.nome_categoria} · {PRICE_RULE_AUDIENCE_LABELS[rule.publico]} · {price} · {rule.usadas}
        {rule.limite === null ? ' vagas usadas, sem limite' : ` de ${rule.limite} vagas usadas`}
        {rule.ate ? ` · até ${formatIsoDateBR(rule.ate)}` : ''} ·{' '}
        {rule.exige_comprovante
          ? `comprovante analisado em até ${rule.prazo_analise_horas} h`
          : 'sem comprovante'}
        {rule.publico === 'lista' ? ` · ${rule.cpfs_na_lista} CPFs na lista` : ''}
      </p>
      {rule.arquivada ? null : (
        <div className="mt-2 flex flex-wrap items-center gap-3">
          {rule.publico === 'lista' ? (
            <label className="text-sm">
              Lista de CPFs de {rule.nome} (CSV, CPF na primeira coluna){' '}
              <input type="file" accept=".csv,text/csv" onChange={(e) => void readCsv(e.target.files?.[0])} />
            </label>
          ) : null}
          <button
            type="button"
            className={secondaryButtonClass}
            disabled={archive.isPending}
            onClick={() => archive.mutate(rule.id)}
          >
            Arquivar {rule.nome}
          </button>
        </div>
      )}
      <FormStatus
        message={
          archive.error || importList.error ? errorMessage(archive.error ?? importList.error) : imported
        }
        tone={archive.error || importList.error ? 'error' : 'success'}
      />
    </article>
  );
}
