import type { RecoveryPanel } from '@passada/core/contracts/cart';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { FormField, FormStatus, primaryButtonClass } from '../../../../components/form-field.tsx';
import { errorMessage } from '../../shell/utils/error-message.ts';
import { recoveryQuery, useSaveRecovery } from '../api/recovery.ts';

/** The form over what the server has; saved with the version it was opened with. */
function RecoveryForm({ panel }: { panel: RecoveryPanel }) {
  const [active, setActive] = useState(panel.ativa);
  const [minutes, setMinutes] = useState(String(panel.atraso_minutos));
  const save = useSaveRecovery();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate({ ativa: active, atraso_minutos: Number(minutes), lockVersion: panel.lockVersion });
  };
  const figures = panel.ultimos_30_dias;
  return (
    <div className="flex flex-col gap-4">
      <form
        onSubmit={submit}
        aria-label="Lembretes de carrinho e inscrição"
        className="flex max-w-md flex-col gap-3"
      >
        <label className="flex items-center gap-2">
          <input
            type="checkbox"
            className="size-5"
            checked={active}
            onChange={(e) => setActive(e.target.checked)}
          />
          Enviar o lembrete
        </label>
        <FormField
          label="Minutos depois de a pessoa sair (15 a 2880)"
          type="number"
          inputMode="numeric"
          min={15}
          max={2880}
          required
          value={minutes}
          onChange={(e) => setMinutes(e.target.value)}
        />
        <button type="submit" className={primaryButtonClass} disabled={save.isPending}>
          Salvar
        </button>
        <FormStatus message={save.isError ? errorMessage(save.error) : null} tone="error" />
        <FormStatus message={save.isSuccess ? 'Lembretes salvos.' : null} tone="success" />
      </form>
      <section aria-labelledby="recuperacao-numeros">
        <h2 id="recuperacao-numeros" className="text-lg font-semibold">
          Últimos 30 dias
        </h2>
        <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1">
          <dt>Lembretes de carrinho</dt>
          <dd>{figures.lembretes_carrinho}</dd>
          <dt>Lembretes de inscrição</dt>
          <dd>{figures.lembretes_inscricao}</dd>
          <dt>Pessoas que pagaram depois do lembrete</dt>
          <dd>{figures.compras_depois}</dd>
        </dl>
      </section>
    </div>
  );
}

/**
 * /painel/lembretes: one e-mail to a signed-in buyer who left a cart, or a runner whose registration's
 * Pix expired, after the time chosen here; never twice, never after a purchase, never to whoever said no.
 */
export default function RecoveryPage() {
  const panel = useQuery(recoveryQuery());
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-2xl font-bold">Lembretes de carrinho e inscrição</h1>
      <p className="max-w-prose">
        Quem entrou na conta e deixou um carrinho, ou uma inscrição sem pagar, recebe um e-mail uma vez, com
        os preços e o estoque do momento. Ninguém recebe depois de comprar nem se desativou os lembretes em
        Minha conta.
      </p>
      {panel.data ? (
        <RecoveryForm panel={panel.data} />
      ) : panel.isError ? (
        <FormStatus message={errorMessage(panel.error)} tone="error" />
      ) : (
        <p role="status">Carregando…</p>
      )}
    </div>
  );
}
