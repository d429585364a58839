import { formatIsoDateBR } from '@passada/core/calendar';
import { UFS } from '@passada/core/cep';
import {
  FISCAL_STATUS_LABELS,
  type FiscalSettings,
  TAX_DESTINATION_LABELS,
  TAX_REGIME_LABELS,
} from '@passada/core/contracts/fiscal';
import { type FormEvent, useState } from 'react';
import {
  FormField,
  FormStatus,
  primaryButtonClass,
  SelectField,
} from '../../../../components/form-field.tsx';
import { ApiRequestError } from '../../../../lib/api.ts';
import { useStaffCan } from '../../shell/api/auth.ts';
import { errorMessage } from '../../shell/utils/error-message.ts';
import {
  useFiscalSettings,
  useIssueMonthNotas,
  useMonthNotas,
  useReformRules,
  useSaveFiscalSettings,
} from '../api/fiscal.ts';

type Form = Omit<FiscalSettings, 'versao' | 'serie_nfe'> & { serie_nfe: string };
const DESTINATIONS = ['interna', 'interestadual'] as const;
const card = 'rounded-lg border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900';

function toForm(s: FiscalSettings): Form {
  const regras = DESTINATIONS.map(
    (destino) =>
      s.regras.find((r) => r.destino === destino) ?? {
        destino,
        cfop: '',
        situacao_icms: '',
        situacao_pis: '',
        situacao_cofins: '',
        situacao_ibs_cbs: '000',
        classificacao_ibs_cbs: '000001',
      },
  );
  return { ...s, serie_nfe: String(s.serie_nfe), regras };
}

function SettingsForm({ settings }: { settings: FiscalSettings }) {
  const canEdit = useStaffCan('catalogo');
  const save = useSaveFiscalSettings();
  const [form, setForm] = useState<Form>(() => toForm(settings));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<{ tone: 'success' | 'error'; message: string } | null>(null);
  const set = (key: keyof Form) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [key]: e.target.value }));
  const setRule =
    (
      i: number,
      key:
        | 'cfop'
        | 'situacao_icms'
        | 'situacao_pis'
        | 'situacao_cofins'
        | 'situacao_ibs_cbs'
        | 'classificacao_ibs_cbs',
    ) =>
    (e: { target: { value: string } }) =>
      setForm((f) => ({
        ...f,
        regras: f.regras.map((r, j) => (j === i ? { ...r, [key]: e.target.value } : r)),
      }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    setStatus(null);
    try {
      const saved = await save.mutateAsync({
        ...form,
        uf: form.uf as FiscalSettings['uf'] as never,
        serie_nfe: Number(form.serie_nfe),
        versao: settings.versao,
      } as never);
      setForm(toForm(saved));
      setStatus({ tone: 'success', message: 'Configurações fiscais salvas.' });
    } catch (err) {
      if (err instanceof ApiRequestError && err.body?.errors) setErrors(err.body.errors);
      setStatus({ tone: 'error', message: errorMessage(err) });
    }
  };

  const field = (key: keyof Form, label: string, extra: Record<string, unknown> = {}) => (
    <FormField
      label={label}
      value={form[key] as string}
      onChange={set(key)}
      error={errors[key]}
      readOnly={!canEdit}
      {...extra}
    />
  );

  return (
    <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
      <fieldset className={card}>
        <legend className="font-semibold">Empresa</legend>
        <div className="grid gap-3 md:grid-cols-2">
          {field('razao_social', 'Razão social')}
          {field('cnpj', 'CNPJ')}
          {field('inscricao_estadual', 'Inscrição estadual')}
          {field('inscricao_municipal', 'Inscrição municipal')}
          <SelectField
            label="Regime tributário"
            value={form.regime}
            onChange={set('regime')}
            error={errors.regime}
            disabled={!canEdit}
          >
            {Object.entries(TAX_REGIME_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </SelectField>
          {field('serie_nfe', 'Série da NF-e', { inputMode: 'numeric' })}
        </div>
      </fieldset>
      <fieldset className={card}>
        <legend className="font-semibold">Endereço do emitente</legend>
        <div className="grid gap-3 md:grid-cols-2">
          {field('logradouro', 'Logradouro')}
          {field('numero', 'Número')}
          {field('bairro', 'Bairro')}
          {field('municipio', 'Município')}
          {field('codigo_municipio', 'Código IBGE do município', { inputMode: 'numeric' })}
          <SelectField label="UF" value={form.uf} onChange={set('uf')} error={errors.uf} disabled={!canEdit}>
            <option value="">Escolha</option>
            {UFS.map((uf) => (
              <option key={uf} value={uf}>
                {uf}
              </option>
            ))}
          </SelectField>
          {field('cep', 'CEP', { inputMode: 'numeric' })}
        </div>
      </fieldset>
      <fieldset className={card}>
        <legend className="font-semibold">CFOP e tributação por destino</legend>
        {errors.regras ? <p className="text-sm text-red-700 dark:text-red-400">{errors.regras}</p> : null}
        {form.regras.map((r, i) => (
          <fieldset key={r.destino} className="mt-3 grid gap-3 md:grid-cols-4">
            <legend className="text-sm font-medium">{TAX_DESTINATION_LABELS[r.destino]}</legend>
            <FormField
              label={`CFOP (${TAX_DESTINATION_LABELS[r.destino].toLowerCase()})`}
              value={r.cfop}
              onChange={setRule(i, 'cfop')}
              error={errors[`regras.${i}.cfop`]}
              readOnly={!canEdit}
            />
            <FormField
              label={`CST/CSOSN do ICMS (${TAX_DESTINATION_LABELS[r.destino].toLowerCase()})`}
              value={r.situacao_icms}
              onChange={setRule(i, 'situacao_icms')}
              error={errors[`regras.${i}.situacao_icms`]}
              readOnly={!canEdit}
            />
            <FormField
              label={`CST do PIS (${TAX_DESTINATION_LABELS[r.destino].toLowerCase()})`}
              value={r.situacao_pis}
              onChange={setRule(i, 'situacao_pis')}
              error={errors[`regras.${i}.situacao_pis`]}
              readOnly={!canEdit}
            />
            <FormField
              label={`CST da COFINS (${TAX_DESTINATION_LABELS[r.destino].toLowerCase()})`}
              value={r.situacao_cofins}
              onChange={setRule(i, 'situacao_cofins')}
              error={errors[`regras.${i}.situacao_cofins`]}
              readOnly={!canEdit}
            />
            <FormField
              label={`CST do IBS/CBS (${TAX_DESTINATION_LABELS[r.destino].toLowerCase()})`}
              value={r.situacao_ibs_cbs}
              onChange={setRule(i, 'situacao_ibs_cbs')}
              error={errors[`regras.${i}.situacao_ibs_cbs`]}
              readOnly={!canEdit}
            />
            <FormField
              label={`Classificação tributária do IBS/CBS (${TAX_DESTINATION_LABELS[r.destino].toLowerCase()})`}
              value={r.classificacao_ibs_cbs}
              onChange={setRule(i, 'classificacao_ibs_cbs')}
              error={errors[`regras.${i}.classificacao_ibs_cbs`]}
              readOnly={!canEdit}
            />
          </fieldset>
        ))}
      </fieldset>
      <fieldset className={card}>
        <legend className="font-semibold">Inscrições (NFS-e)</legend>
        <div className="grid gap-3 md:grid-cols-2">
          {field('codigo_servico_nfse', 'Código do serviço (lista da LC 116)', { placeholder: '12.11' })}
          {field('codigo_tributacao_nacional', 'Código de tributação nacional (cTribNac)', {
            placeholder: '121101',
            inputMode: 'numeric',
          })}
          {field('nbs', 'Código NBS', { inputMode: 'numeric' })}
          {field('cnae', 'CNAE', { inputMode: 'numeric' })}
          {field('codigo_tributario_municipio', 'Código tributário do município')}
        </div>
      </fieldset>
      <fieldset className={card}>
        <legend className="font-semibold">Alíquota da CBS de 2027</legend>
        <p className="text-sm">
          A lei não fixa a CBS de 2027: ela sai em resolução do Senado Federal (LC 214/2025, art. 349). Sem
          ela, as notas de 2027 param com o motivo.
        </p>
        <div className="grid gap-3 md:grid-cols-2">
          {field('cbs_2027', 'Alíquota da CBS de 2027 (%)', { placeholder: '8,8000', inputMode: 'decimal' })}
          {field('cbs_2027_fonte', 'Fonte da alíquota (resolução do Senado)')}
        </div>
      </fieldset>
      {status ? <FormStatus tone={status.tone} message={status.message} /> : null}
      {canEdit ? (
        <button type="submit" className={primaryButtonClass} disabled={save.isPending}>
          Salvar configurações fiscais
        </button>
      ) : (
        <p className="text-sm">Só quem edita o catálogo altera estes dados.</p>
      )}
    </form>
  );
}

const yesNo = (v: boolean) => (v ? 'Exige' : '—');

/**
 * The tax reform's rules for the shop's regime (docs/decisions/0059): what applies today, from which
 * date the next rules apply, and what each city's NFS-e requires beyond the national layout.
 */
export function ReformRulesPanel() {
  const rules = useReformRules();
  if (rules.isError) return <p role="alert">{errorMessage(rules.error)}</p>;
  const r = rules.data;
  if (!r) return null;
  return (
    <section className={card} aria-labelledby="reforma-tributaria">
      <h2 id="reforma-tributaria" className="font-semibold">
        Reforma tributária: IBS e CBS
      </h2>
      <p className="text-sm">
        Regime da loja: {TAX_REGIME_LABELS[r.regime]} (CRT {r.crt}).
        {r.aliquotas
          ? ` Cada NF-e leva IBS da UF ${r.aliquotas.ibs_uf}, IBS do município ${r.aliquotas.ibs_mun} e CBS ${r.aliquotas.cbs}.`
          : ' As NF-e ainda não levam IBS e CBS neste regime.'}
      </p>
      {r.aviso ? (
        <p role="alert" className="mt-2 text-sm font-semibold text-amber-800 dark:text-amber-300">
          {r.aviso}
        </p>
      ) : null}
      <h3 className="mt-3 text-sm font-semibold">Em vigor hoje ({formatIsoDateBR(r.hoje)})</h3>
      <ul aria-label="Regras em vigor hoje" className="list-disc pl-5 text-sm">
        {r.em_vigor.map((e) => (
          <li key={`${e.desde}-${e.regra}`}>
            Desde {formatIsoDateBR(e.desde)}: {e.regra}
          </li>
        ))}
      </ul>
      {r.proximas ? (
        <>
          <h3 className="mt-3 text-sm font-semibold">
            A partir de {formatIsoDateBR(r.proximas.a_partir_de)}
          </h3>
          <ul aria-label="Próximas regras" className="list-disc pl-5 text-sm">
            {r.proximas.regras.map((text) => (
              <li key={text}>{text}</li>
            ))}
          </ul>
        </>
      ) : null}
      <table className="mt-3 w-full text-sm">
        <caption className="text-left font-semibold">Campos da NFS-e exigidos por município</caption>
        <thead>
          <tr className="text-left">
            <th scope="col">Município</th>
            <th scope="col">Endereço do tomador</th>
            <th scope="col">CNAE</th>
            <th scope="col">Código municipal</th>
            <th scope="col">NBS</th>
          </tr>
        </thead>
        <tbody>
          {r.nfse_cidades.map((c) => (
            <tr key={c.codigo_municipio}>
              <th scope="row" className="font-normal">
                {c.municipio}/{c.uf}
              </th>
              <td>{yesNo(c.endereco_tomador)}</td>
              <td>{yesNo(c.cnae)}</td>
              <td>{yesNo(c.codigo_municipal)}</td>
              <td>{yesNo(c.nbs)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="mt-1 text-xs">
        Nos demais municípios, o leiaute nacional: código de tributação nacional e local de incidência.
      </p>
    </section>
  );
}

/** The month before today's, as aaaa-mm (local calendar). */
function lastMonth(): string {
  const d = new Date();
  d.setDate(1);
  d.setMonth(d.getMonth() - 1);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}`;
}

const brl = (v: number) => v.toLocaleString('pt-BR', { style: 'currency', currency: 'BRL' });

/**
 * One NFS-e per event per month (NFSE_GROUPING=event_month, decision 0049): the month's notas and
 * "Emitir agora" for a month already over; the job issues them by itself on the 1st.
 */
export function MonthNfse() {
  const [mes, setMes] = useState(lastMonth);
  const notas = useMonthNotas(mes);
  const issue = useIssueMonthNotas();
  const [status, setStatus] = useState<{ tone: 'success' | 'error'; message: string } | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setStatus(null);
    try {
      const done = await issue.mutateAsync(mes);
      setStatus({
        tone: 'success',
        message: done.length
          ? `${done.length} nota(s) do mês na fila ou emitida(s).`
          : 'Nenhuma inscrição paga sem nota neste mês.',
      });
    } catch (error) {
      setStatus({ tone: 'error', message: errorMessage(error) });
    }
  };
  return (
    <section className={card} aria-labelledby="nfse-mensal">
      <h2 id="nfse-mensal" className="font-semibold">
        NFS-e do mês por evento
      </h2>
      <p className="text-sm">
        Quando a prefeitura aceita, a loja emite uma NFS-e por evento com as inscrições pagas do mês, no dia
        1º do mês seguinte. Use "Emitir agora" para um mês já encerrado.
      </p>
      <form onSubmit={submit} className="mt-2 flex flex-wrap items-end gap-2">
        <label className="flex flex-col text-sm">
          Mês
          <input
            type="month"
            value={mes}
            onChange={(e) => setMes(e.target.value)}
            className="rounded border border-stone-300 px-2 py-1 dark:border-stone-700 dark:bg-stone-950"
          />
        </label>
        <button type="submit" className={primaryButtonClass} disabled={issue.isPending}>
          Emitir agora
        </button>
      </form>
      {status ? <FormStatus tone={status.tone} message={status.message} /> : null}
      {notas.isError ? <p role="alert">{errorMessage(notas.error)}</p> : null}
      {notas.data?.length ? (
        <table className="mt-3 w-full text-sm">
          <caption className="sr-only">NFS-e do mês {mes}</caption>
          <thead>
            <tr className="text-left">
              <th scope="col">Evento</th>
              <th scope="col">Inscrições</th>
              <th scope="col">Valor</th>
              <th scope="col">Situação</th>
              <th scope="col">Nota</th>
            </tr>
          </thead>
          <tbody>
            {notas.data.map((n) => (
              <tr key={n.id}>
                <td>{n.evento_nome}</td>
                <td>{n.inscricoes}</td>
                <td>{brl(n.valor)}</td>
                <td>
                  {FISCAL_STATUS_LABELS[n.status]}
                  {n.motivo ? <span className="block text-xs">{n.motivo}</span> : null}
                </td>
                <td>
                  {n.pdf_url ? (
                    <a href={n.pdf_url} target="_blank" rel="noreferrer" className="underline">
                      NFS-e {n.numero}
                    </a>
                  ) : (
                    '—'
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : notas.data ? (
        <p className="mt-2 text-sm">Nenhuma NFS-e do mês para {mes}.</p>
      ) : null}
    </section>
  );
}

/** /painel/fiscal: the company's data every nota names, and the CFOP and tax rules (decision 0043). */
export default function FiscalPage() {
  const settings = useFiscalSettings();
  const canIssue = useStaffCan('pedidos');
  return (
    <section className="flex flex-col gap-4">
      <h1 className="text-2xl font-bold">Configurações fiscais</h1>
      <p className="text-sm">
        Estes dados vão em cada nota fiscal emitida depois do pagamento. Dados errados ou faltando param a
        emissão (nunca a venda) e o pedido mostra o motivo.
      </p>
      {settings.isPending ? <p role="status">Carregando...</p> : null}
      {settings.isError ? <p role="alert">{errorMessage(settings.error)}</p> : null}
      {settings.data ? <ReformRulesPanel /> : null}
      {settings.data ? <SettingsForm settings={settings.data} /> : null}
      {canIssue ? <MonthNfse /> : null}
    </section>
  );
}
