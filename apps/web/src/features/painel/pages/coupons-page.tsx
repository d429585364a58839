import type { ProductCategory } from '@passada/core/contracts/catalog';
import type { CouponInput, PainelCoupon } from '@passada/core/contracts/coupons';
import { formatIsoDateBR } from '@passada/core/events';
import { formatBRL, reaisToCents } from '@passada/core/money';
import { type FormEvent, useState } from 'react';
import {
  FormField,
  FormStatus,
  primaryButtonClass,
  SelectField,
  secondaryButtonClass,
  TextAreaField,
} from '../../../components/form-field.tsx';
import { ApiRequestError } from '../../../lib/api.ts';
import { useCoupons, useSaveCoupon } from '../api/coupons.ts';
import { useEvents, useEventsDetails } from '../api/events.ts';
import { DataTable } from '../components/data-table.tsx';
import { errorMessage } from '../utils/error-message.ts';

const PRODUCT_CATEGORIES: Array<[ProductCategory, string]> = [
  ['feminino', 'Feminino'],
  ['masculino', 'Masculino'],
  ['acessorios', 'Acessórios'],
];

/** The form's text fields; numbers stay text while typed, empty means "no limit". */
interface Draft {
  codigo: string;
  descricao: string;
  tipo: 'percentual' | 'fixo';
  valor: string;
  valido_de: string;
  valido_ate: string;
  usos_max: string;
  usos_por_cpf: string;
  usos_por_conta: string;
  valor_minimo: string;
  escopo: 'loja' | 'corridas';
  categorias_produto: ProductCategory[];
  eventos: number[];
  categorias_evento: number[];
  ativo: boolean;
}

const blank: Draft = {
  codigo: '',
  descricao: '',
  tipo: 'percentual',
  valor: '',
  valido_de: '',
  valido_ate: '',
  usos_max: '',
  usos_por_cpf: '',
  usos_por_conta: '',
  valor_minimo: '',
  escopo: 'loja',
  categorias_produto: [],
  eventos: [],
  categorias_evento: [],
  ativo: true,
};

const text = (n: number | null) => (n === null ? '' : String(n));
const num = (v: string) => (v.trim() === '' ? null : Number(v.replace(',', '.')));

function fromCoupon(c: PainelCoupon): Draft {
  return {
    codigo: c.codigo,
    descricao: c.descricao,
    tipo: c.tipo,
    valor: String(c.valor),
    valido_de: c.valido_de ?? '',
    valido_ate: c.valido_ate ?? '',
    usos_max: text(c.usos_max),
    usos_por_cpf: text(c.usos_por_cpf),
    usos_por_conta: text(c.usos_por_conta),
    valor_minimo: text(c.valor_minimo),
    escopo: c.escopo,
    categorias_produto: c.categorias_produto,
    eventos: c.eventos,
    categorias_evento: c.categorias_evento,
    ativo: c.ativo,
  };
}

function toInput(d: Draft): CouponInput {
  return {
    codigo: d.codigo,
    descricao: d.descricao,
    tipo: d.tipo,
    valor: num(d.valor) ?? 0,
    valido_de: d.valido_de || null,
    valido_ate: d.valido_ate || null,
    usos_max: num(d.usos_max),
    usos_por_cpf: num(d.usos_por_cpf),
    usos_por_conta: num(d.usos_por_conta),
    valor_minimo: num(d.valor_minimo),
    escopo: d.escopo,
    categorias_produto: d.escopo === 'loja' ? d.categorias_produto : [],
    eventos: d.escopo === 'corridas' ? d.eventos : [],
    categorias_evento: d.escopo === 'corridas' ? d.categorias_evento : [],
    ativo: d.ativo,
  };
}

const discountText = (c: PainelCoupon) =>
  c.tipo === 'percentual' ? `${c.valor}%` : formatBRL(reaisToCents(c.valor));
const validityText = (c: PainelCoupon) =>
  c.valido_de || c.valido_ate
    ? `${c.valido_de ? formatIsoDateBR(c.valido_de) : '…'} a ${c.valido_ate ? formatIsoDateBR(c.valido_ate) : '…'}`
    : 'Sem prazo';
const usesText = (c: PainelCoupon) =>
  `${c.usos_confirmados}${c.usos_max === null ? '' : ` de ${c.usos_max}`} pagos` +
  (c.usos_reservados > 0 ? `, ${c.usos_reservados} em pagamento` : '') +
  (c.desconto_total > 0 ? ` (${formatBRL(reaisToCents(c.desconto_total))})` : '');

const toggle = <T,>(list: T[], value: T, on: boolean) =>
  on ? [...list, value] : list.filter((v) => v !== value);

function Checkbox(props: { label: string; checked: boolean; onChange: (on: boolean) => void }) {
  return (
    <label className="flex items-center gap-2 text-sm">
      <input type="checkbox" checked={props.checked} onChange={(e) => props.onChange(e.target.checked)} />
      {props.label}
    </label>
  );
}

/** Admins only: discount coupons with their uses; create, edit and deactivate. */
export default function CouponsPage() {
  const coupons = useCoupons();
  const saveCoupon = useSaveCoupon();
  const events = useEvents();
  const [editing, setEditing] = useState<number | null>(null);
  const [draft, setDraft] = useState<Draft>(blank);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<{ message: string; tone: 'success' | 'error' } | null>(null);
  // The categories of the events chosen, to narrow a race coupon further.
  const chosenEvents = useEventsDetails(draft.eventos);

  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));

  const run = async (action: () => Promise<unknown>, done: string) => {
    setErrors({});
    try {
      await action();
      setStatus({ message: done, tone: 'success' });
      return true;
    } catch (error) {
      if (error instanceof ApiRequestError && error.body?.errors) setErrors(error.body.errors);
      setStatus({ message: errorMessage(error), tone: 'error' });
      return false;
    }
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const body = toInput(draft);
    const ok =
      editing === null
        ? await run(() => saveCoupon.mutateAsync({ id: null, body }), 'Cupom criado.')
        : await run(() => saveCoupon.mutateAsync({ id: editing, body }), 'Cupom alterado.');
    if (ok) {
      setEditing(null);
      setDraft(blank);
    }
  };
  const setActive = (c: PainelCoupon, ativo: boolean) =>
    run(
      () => saveCoupon.mutateAsync({ id: c.id, body: toInput({ ...fromCoupon(c), ativo }) }),
      ativo ? 'Cupom reativado.' : 'Cupom desativado.',
    );

  return (
    <section>
      <h1 className="mb-4 text-2xl font-bold">Cupons de desconto</h1>
      <DataTable
        label="Cupons"
        className="mb-8 w-full"
        rows={coupons.data}
        rowKey={(c) => c.id}
        empty="Nenhum cupom ainda."
        columns={[
          { header: 'Código', rowHeader: true, className: 'font-mono', cell: (c) => c.codigo },
          { header: 'Desconto', cell: discountText },
          { header: 'Vale para', cell: (c) => (c.escopo === 'loja' ? 'Loja' : 'Corridas') },
          { header: 'Validade', cell: validityText },
          { header: 'Usos', cell: usesText },
          { header: 'Situação', cell: (c) => (c.ativo ? 'Ativo' : 'Inativo') },
          {
            header: 'Ações',
            hideHeader: true,
            cell: (c) => (
              <div className="flex gap-3">
                <button
                  type="button"
                  className="underline"
                  aria-label={`Editar ${c.codigo}`}
                  onClick={() => {
                    setEditing(c.id);
                    setDraft(fromCoupon(c));
                    setErrors({});
                  }}
                >
                  Editar
                </button>
                <button
                  type="button"
                  className="underline"
                  aria-label={`${c.ativo ? 'Desativar' : 'Reativar'} ${c.codigo}`}
                  onClick={() => setActive(c, !c.ativo)}
                >
                  {c.ativo ? 'Desativar' : 'Reativar'}
                </button>
              </div>
            ),
          },
        ]}
      />
      <FormStatus message={status?.message ?? null} tone={status?.tone ?? 'success'} />

      <h2 className="mt-6 mb-2 text-xl font-semibold">
        {editing === null ? 'Novo cupom' : `Editar cupom ${draft.codigo}`}
      </h2>
      <form onSubmit={save} noValidate className="grid max-w-2xl gap-3 sm:grid-cols-2">
        <FormField
          label="Código"
          value={draft.codigo}
          error={errors.codigo}
          onChange={(e) => set({ codigo: e.target.value.toUpperCase() })}
        />
        <SelectField
          label="Vale para"
          value={draft.escopo}
          onChange={(e) => set({ escopo: e.target.value as Draft['escopo'] })}
        >
          <option value="loja">Produtos da loja</option>
          <option value="corridas">Inscrições em corridas</option>
        </SelectField>
        <SelectField
          label="Tipo de desconto"
          value={draft.tipo}
          onChange={(e) => set({ tipo: e.target.value as Draft['tipo'] })}
        >
          <option value="percentual">Percentual (%)</option>
          <option value="fixo">Valor fixo (R$)</option>
        </SelectField>
        <FormField
          label={draft.tipo === 'percentual' ? 'Percentual' : 'Valor (R$)'}
          inputMode="decimal"
          value={draft.valor}
          error={errors.valor}
          onChange={(e) => set({ valor: e.target.value })}
        />
        <FormField
          label="Válido de"
          type="date"
          value={draft.valido_de}
          error={errors.valido_de}
          onChange={(e) => set({ valido_de: e.target.value })}
        />
        <FormField
          label="Válido até"
          type="date"
          value={draft.valido_ate}
          error={errors.valido_ate}
          onChange={(e) => set({ valido_ate: e.target.value })}
        />
        <FormField
          label="Usos no total (vazio: sem limite)"
          inputMode="numeric"
          value={draft.usos_max}
          error={errors.usos_max}
          onChange={(e) => set({ usos_max: e.target.value })}
        />
        <FormField
          label="Usos por conta"
          inputMode="numeric"
          value={draft.usos_por_conta}
          error={errors.usos_por_conta}
          onChange={(e) => set({ usos_por_conta: e.target.value })}
        />
        <FormField
          label="Usos por CPF (inscrições)"
          inputMode="numeric"
          value={draft.usos_por_cpf}
          error={errors.usos_por_cpf}
          onChange={(e) => set({ usos_por_cpf: e.target.value })}
        />
        <FormField
          label="Valor mínimo (R$)"
          inputMode="decimal"
          value={draft.valor_minimo}
          error={errors.valor_minimo}
          onChange={(e) => set({ valor_minimo: e.target.value })}
        />
        <div className="sm:col-span-2">
          <TextAreaField
            label="Descrição (para a equipe)"
            rows={2}
            value={draft.descricao}
            error={errors.descricao}
            onChange={(e) => set({ descricao: e.target.value })}
          />
        </div>
        {draft.escopo === 'loja' ? (
          <fieldset className="sm:col-span-2">
            <legend className="text-sm font-medium">Categorias de produto (nenhuma: todas)</legend>
            <div className="mt-1 flex gap-4">
              {PRODUCT_CATEGORIES.map(([value, label]) => (
                <Checkbox
                  key={value}
                  label={label}
                  checked={draft.categorias_produto.includes(value)}
                  onChange={(on) => set({ categorias_produto: toggle(draft.categorias_produto, value, on) })}
                />
              ))}
            </div>
            {errors.categorias_produto ? (
              <p className="text-sm text-red-700 dark:text-red-400">{errors.categorias_produto}</p>
            ) : null}
          </fieldset>
        ) : (
          <fieldset className="sm:col-span-2">
            <legend className="text-sm font-medium">Eventos (nenhum: todos)</legend>
            <div className="mt-1 flex flex-col gap-1">
              {events.data?.map((e) => (
                <Checkbox
                  key={e.id}
                  label={e.nome_evento}
                  checked={draft.eventos.includes(e.id)}
                  onChange={(on) =>
                    set({
                      eventos: toggle(draft.eventos, e.id, on),
                      // Unchecking an event drops its categories from the choice too.
                      categorias_evento: on
                        ? draft.categorias_evento
                        : draft.categorias_evento.filter(
                            (id) =>
                              !chosenEvents
                                .find((q) => q.data?.id === e.id)
                                ?.data?.dias_evento.some((d) => d.categorias.some((c) => c.id === id)),
                          ),
                    })
                  }
                />
              ))}
            </div>
            {chosenEvents.some((q) => q.data) ? (
              <>
                <p className="mt-3 text-sm font-medium">Categorias (nenhuma: todas dos eventos escolhidos)</p>
                <div className="mt-1 flex flex-col gap-1">
                  {chosenEvents.flatMap((q) =>
                    (q.data?.dias_evento ?? []).flatMap((day) =>
                      day.categorias.map((c) => (
                        <Checkbox
                          key={c.id}
                          label={`${q.data?.nome_evento}: ${c.nome_categoria} (${formatIsoDateBR(day.data)})`}
                          checked={draft.categorias_evento.includes(c.id)}
                          onChange={(on) =>
                            set({ categorias_evento: toggle(draft.categorias_evento, c.id, on) })
                          }
                        />
                      )),
                    ),
                  )}
                </div>
              </>
            ) : null}
            {errors.eventos || errors.categorias_evento ? (
              <p className="text-sm text-red-700 dark:text-red-400">
                {errors.eventos ?? errors.categorias_evento}
              </p>
            ) : null}
          </fieldset>
        )}
        <div className="sm:col-span-2">
          <Checkbox label="Ativo" checked={draft.ativo} onChange={(on) => set({ ativo: on })} />
        </div>
        <div className="flex gap-3 sm:col-span-2">
          <button type="submit" className={primaryButtonClass}>
            {editing === null ? 'Criar cupom' : 'Salvar cupom'}
          </button>
          {editing !== null ? (
            <button
              type="button"
              className={secondaryButtonClass}
              onClick={() => {
                setEditing(null);
                setDraft(blank);
                setErrors({});
              }}
            >
              Cancelar edição
            </button>
          ) : null}
        </div>
      </form>
    </section>
  );
}
