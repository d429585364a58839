import type { AfterSaleRulesWire, PainelAfterSale } from '@passada/core/contracts/after-sale';
import { type FormEvent, useState } from 'react';
import {
  FormField,
  FormStatus,
  primaryButtonClass,
  SelectField,
} from '../../../../components/form-field.tsx';
import { ApiRequestError } from '../../../../lib/api.ts';
import { isStaleVersion, StaleVersionAlert } from '../../shell/components/stale-version-alert.tsx';
import { errorMessage } from '../../shell/utils/error-message.ts';
import { amountText, numberText, typedNumber } from '../../shell/utils/typed-number.ts';
import { useAfterSale, useSaveAfterSale } from '../api/after-sale.ts';

/** The waitlist's categories are a list of ids, kept apart from the text fields. */
type Field = Exclude<keyof AfterSaleRulesWire, 'lista_espera_categorias' | 'equipe_faixas'>;
/** What the answer holds besides the rules: shown or sent apart, never a field of the form. */
const NOT_FIELDS = new Set<string>(['lista_espera_categorias', 'equipe_faixas', 'texto', 'versao']);
/** The team price's tiers as typed: three rows, a blank row sends nothing (docs/decisions/0074). */
type TierRow = { min: string; percent: string };
const TIER_ROWS = 3;
function tierRows(loaded: PainelAfterSale): TierRow[] {
  const rows = loaded.equipe_faixas.map((t) => ({
    min: String(t.min_membros),
    percent: String(t.percentual),
  }));
  while (rows.length < TIER_ROWS) rows.push({ min: '', percent: '' });
  return rows;
}
type Status = { message: string; tone: 'success' | 'error' } | null;
type Texts = Record<Field, string>;
/** A category of the event, as the waitlist's checkboxes name it. */
export interface AfterSaleCategory {
  id: number;
  nome: string;
}

const MONEY: Field[] = ['cancelamento_taxa', 'transferencia_taxa', 'troca_distancia_taxa'];
const COUNTS: Field[] = [
  'cancelamento_horas_minimas',
  'cancelamento_percentual_retido',
  'lista_espera_horas_oferta',
];
const CHECKS: Array<[Field, string]> = [
  ['transferencia_permitida', 'Permite transferir a inscrição para outra pessoa'],
  ['troca_distancia_permitida', 'Permite trocar de distância (categoria)'],
  ['troca_distancia_devolve_diferenca', 'Devolve a diferença quando a nova distância custa menos'],
  ['troca_tamanho_permitida', 'Permite trocar o tamanho da camisa'],
  ['retirada_terceiro_permitida', 'Permite a retirada do kit por outra pessoa autorizada pelo participante'],
  ['retirada_terceiro_recusa_meia_60', 'Não permite a retirada por outra pessoa com meia-entrada 60+'],
  ['item_exigido', 'Exige o item na retirada (sem ele, o kit não é entregue)'],
];
/** Free texts (the item to bring at pickup): blank sends null. */
const WORDS: Field[] = ['item_retirada', 'item_unidade'];

function toTexts(r: PainelAfterSale): Texts {
  const t = {} as Texts;
  // The version goes back as it was read: a text of it would be sent as a yes/no.
  for (const [k, v] of Object.entries(r) as Array<[Field, unknown]>)
    if (NOT_FIELDS.has(k)) continue;
    else
      t[k] = WORDS.includes(k)
        ? ((v as string | null) ?? '')
        : MONEY.includes(k)
          ? amountText(v as number)
          : typeof v === 'boolean'
            ? String(v)
            : numberText(v as number | null);
  return t;
}

function toBody(t: Texts, versao: number, waitlist: number[], tiers: TierRow[]) {
  const out: Record<string, unknown> = {
    versao,
    lista_espera_categorias: waitlist,
    equipe_faixas: tiers
      .filter((r) => r.min.trim() || r.percent.trim())
      .map((r) => ({ min_membros: typedNumber(r.min), percentual: typedNumber(r.percent) })),
  };
  for (const [k, v] of Object.entries(t) as Array<[Field, string]>) {
    if (k.endsWith('_ate')) out[k] = v || null;
    else if (k === 'cancelamento_apos_prazo' || k === 'equipe_vagas_nao_resgatadas') out[k] = v;
    // Referral (docs/decisions/0086): blank minimum is none; blank percentage is 0.
    else if (k === 'indicacao_minimo') out[k] = v.trim() ? typedNumber(v) : null;
    else if (k === 'indicacao_percentual') out[k] = v.trim() ? typedNumber(v) : 0;
    else if (WORDS.includes(k)) out[k] = v.trim() || null;
    else if (MONEY.includes(k) || COUNTS.includes(k)) out[k] = typedNumber(v);
    else out[k] = v === 'true';
  }
  return out as unknown as AfterSaleRulesWire & { versao: number };
}

/**
 * The "Depois da venda" section of the event form (docs/decisions/0035-runner-after-sale.md): what
 * runners may do alone after paying. Saved apart from the event, with its own version.
 */
export function EventAfterSaleFields({
  eventId,
  categories = [],
}: {
  eventId: number;
  categories?: AfterSaleCategory[];
}) {
  const query = useAfterSale(eventId);
  // Kept above the form, which starts again from each saved version: the saved message stays.
  const [status, setStatus] = useState<Status>(null);
  // Quietly absent while it loads or when it cannot: the event form above stays usable.
  if (!query.data)
    return query.isError ? <p className="mt-8">Regras de pós-venda indisponíveis agora.</p> : null;
  return (
    <AfterSaleForm
      key={query.data.versao}
      eventId={eventId}
      categories={categories}
      loaded={query.data}
      reload={query.refetch}
      status={status}
      setStatus={setStatus}
    />
  );
}

function AfterSaleForm(props: {
  eventId: number;
  categories: AfterSaleCategory[];
  loaded: PainelAfterSale;
  reload: () => Promise<unknown>;
  status: Status;
  setStatus(status: Status): void;
}) {
  const { status, setStatus } = props;
  const save = useSaveAfterSale(props.eventId);
  const [texts, setTexts] = useState<Texts>(() => toTexts(props.loaded));
  const [waitlist, setWaitlist] = useState<number[]>(() => props.loaded.lista_espera_categorias);
  const [tiers, setTiers] = useState<TierRow[]>(() => tierRows(props.loaded));
  const setTier = (i: number, k: keyof TierRow) => (e: { target: { value: string } }) =>
    setTiers(tiers.map((r, j) => (j === i ? { ...r, [k]: e.target.value } : r)));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [stale, setStale] = useState<string | null>(null);
  const set = (k: Field) => (e: { target: { value: string } }) => setTexts({ ...texts, [k]: e.target.value });
  const text = (k: Field, label: string, extra: Record<string, unknown> = {}) => (
    <FormField label={label} value={texts[k]} onChange={set(k)} error={errors[k]} {...extra} />
  );

  async function submit(e: FormEvent) {
    e.preventDefault();
    setErrors({});
    setStatus(null);
    try {
      await save.mutateAsync(toBody(texts, props.loaded.versao, waitlist, tiers));
      setStatus({ message: 'Regras de pós-venda salvas.', tone: 'success' });
    } catch (error) {
      if (isStaleVersion(error)) return setStale(errorMessage(error));
      if (error instanceof ApiRequestError) setErrors(error.body?.errors ?? {});
      setStatus({ message: errorMessage(error), tone: 'error' });
    }
  }

  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-labelledby="pos-venda" className="mt-8 grid gap-4">
      <h2 id="pos-venda" className="text-xl font-bold">
        Depois da venda
      </h2>
      <p className="text-sm">
        Regras para o participante cancelar, transferir ou trocar sozinho, pela conta ou pelo e-mail.
      </p>
      <div className="grid grid-cols-2 gap-4 md:grid-cols-3">
        {text('cancelamento_horas_minimas', 'Reembolso integral até (horas antes da largada)', {
          inputMode: 'numeric',
        })}
        <SelectField
          label="Depois de 7 dias da compra"
          value={texts.cancelamento_apos_prazo}
          onChange={set('cancelamento_apos_prazo')}
          error={errors.cancelamento_apos_prazo}
        >
          <option value="nao">Não pode cancelar</option>
          <option value="taxa">Cancela com taxa</option>
          <option value="percentual">Cancela com percentual retido</option>
        </SelectField>
        {texts.cancelamento_apos_prazo === 'taxa'
          ? text('cancelamento_taxa', 'Taxa de cancelamento (R$)', { inputMode: 'decimal' })
          : texts.cancelamento_apos_prazo === 'percentual'
            ? text('cancelamento_percentual_retido', 'Percentual retido (%)', { inputMode: 'numeric' })
            : null}
        <SelectField
          label="Vagas de equipe não usadas até o prazo"
          value={texts.equipe_vagas_nao_resgatadas}
          onChange={set('equipe_vagas_nao_resgatadas')}
          error={errors.equipe_vagas_nao_resgatadas}
        >
          <option value="devolver">Devolvidas ao capitão</option>
          <option value="liberar">Voltam à venda, sem devolução</option>
        </SelectField>
        {text('transferencia_ate', 'Transferência até', { type: 'date' })}
        {text('transferencia_taxa', 'Taxa de transferência (R$)', { inputMode: 'decimal' })}
        {text('troca_distancia_ate', 'Troca de distância até', { type: 'date' })}
        {text('troca_distancia_taxa', 'Taxa de troca de distância (R$)', { inputMode: 'decimal' })}
        {text('troca_tamanho_ate', 'Troca de camisa até', { type: 'date' })}
        {text('lista_espera_horas_oferta', 'Vaga da lista de espera reservada por (horas)', {
          inputMode: 'numeric',
        })}
        {text('item_retirada', 'Item a trazer na retirada (ex.: 1 kg de alimento não perecível)', {
          maxLength: 120,
        })}
        {text('item_unidade', 'Unidade contada na mesa (ex.: kg)', { maxLength: 10 })}
      </div>
      <p className="text-sm">Datas em branco valem até o prazo de inscrição.</p>
      {CHECKS.map(([k, label]) => (
        <label key={k} className="flex items-center gap-2">
          <input
            type="checkbox"
            checked={texts[k] === 'true'}
            onChange={(e) => setTexts({ ...texts, [k]: String(e.target.checked) })}
          />
          {label}
        </label>
      ))}
      {props.categories.length > 0 ? (
        <fieldset className="grid gap-2">
          <legend className="font-medium">Lista de espera quando a categoria esgotar</legend>
          {props.categories.map((c) => (
            <label key={c.id} className="flex items-center gap-2">
              <input
                type="checkbox"
                checked={waitlist.includes(c.id)}
                onChange={(e) =>
                  setWaitlist(e.target.checked ? [...waitlist, c.id] : waitlist.filter((id) => id !== c.id))
                }
              />
              Lista de espera em {c.nome}
            </label>
          ))}
          {errors.lista_espera_categorias ? (
            <p className="text-sm text-red-700">{errors.lista_espera_categorias}</p>
          ) : null}
        </fieldset>
      ) : null}
      <fieldset className="grid gap-2">
        <legend className="font-medium">Preço de equipe (desconto pelo número de inscritos da equipe)</legend>
        <p className="text-sm">
          Vale para quem se inscreve com o código de uma equipe, sem cupom nem meia-entrada. Quem se inscreveu
          antes recebe a diferença de volta quando a equipe chega a uma faixa. Deixe em branco para não ter.
        </p>
        {tiers.map((row, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: three fixed rows, edited in place
          <div key={i} className="grid grid-cols-2 gap-4 md:max-w-md">
            <FormField
              label={`Faixa ${i + 1}: a partir de (inscritos)`}
              inputMode="numeric"
              value={row.min}
              onChange={setTier(i, 'min')}
              error={errors[`equipe_faixas.${i}.min_membros`]}
            />
            <FormField
              label={`Faixa ${i + 1}: desconto (%)`}
              inputMode="numeric"
              value={row.percent}
              onChange={setTier(i, 'percent')}
              error={errors[`equipe_faixas.${i}.percentual`]}
            />
          </div>
        ))}
        {errors.equipe_faixas ? <p className="text-sm text-red-700">{errors.equipe_faixas}</p> : null}
      </fieldset>
      <fieldset className="grid gap-2">
        <legend className="font-medium">Indicação (link de cada inscrito)</legend>
        <p className="text-sm">
          Cada inscrito pago recebe um link em "Minhas inscrições". Depois do número de inscrições pagas por
          ele (de outras pessoas, com outro CPF e outra conta, ainda de pé 7 dias depois do pagamento), o
          percentual do que ele pagou volta para ele, uma vez. Deixe em branco para não ter.
        </p>
        <div className="grid grid-cols-2 gap-4 md:max-w-md">
          {text('indicacao_minimo', 'Inscrições pagas pelo link', { inputMode: 'numeric' })}
          {text('indicacao_percentual', 'Devolução (% do valor pago)', { inputMode: 'numeric' })}
        </div>
      </fieldset>
      <div className="text-sm">
        <p className="font-medium">Como o participante lê estas regras:</p>
        <ul className="list-disc pl-5">
          {props.loaded.texto.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      </div>
      <FormStatus message={status?.message ?? null} tone={status?.tone ?? 'success'} />
      {stale ? (
        <StaleVersionAlert
          message={stale}
          reloadLabel="Recarregar as regras"
          onReload={async () => void (await props.reload())}
        />
      ) : null}
      <button type="submit" disabled={save.isPending} className={`${primaryButtonClass} justify-self-start`}>
        Salvar regras de pós-venda
      </button>
    </form>
  );
}
