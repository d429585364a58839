import type { PainelCoupon } from '@passada/core/contracts/coupons';
import { type FormEvent, useState } from 'react';
import {
  FormField,
  FormStatus,
  primaryButtonClass,
  SelectField,
  secondaryButtonClass,
  TextAreaField,
} from '../../../../components/form-field.tsx';
import { ApiRequestError } from '../../../../lib/api.ts';
import { DataTable } from '../../shell/components/data-table.tsx';
import { errorMessage } from '../../shell/utils/error-message.ts';
import { useCoupons, useSaveCoupon } from '../api/coupons.ts';
import { Checkbox, CouponScopeFields } from '../components/coupon-scope-fields.tsx';
import {
  blank,
  type Draft,
  discountText,
  fromCoupon,
  toInput,
  usesText,
  validityText,
} from '../utils/coupon-draft.ts';

/** Admins only: discount coupons with their uses; create, edit and deactivate. */
export default function CouponsPage() {
  const coupons = useCoupons();
  const saveCoupon = useSaveCoupon();
  const [editing, setEditing] = useState<number | null>(null);
  const [draft, setDraft] = useState<Draft>(blank);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<{ message: string; tone: 'success' | 'error' } | null>(null);

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
        <CouponScopeFields draft={draft} errors={errors} set={set} />
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
