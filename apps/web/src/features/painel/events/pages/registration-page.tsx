import { PAYMENT_METHOD_LABEL } from '@passada/core/contracts/orders';
import type { PainelRegistrationDetail } from '@passada/core/contracts/painel';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import {
  FormField,
  FormStatus,
  linkClass,
  secondaryButtonClass,
} from '../../../../components/form-field.tsx';
import { formatReais } from '../../../../components/price.tsx';
import { formatDateTime } from '../../../../lib/format.ts';
import { useStaffCan } from '../../shell/api/auth.ts';
import { errorMessage } from '../../shell/utils/error-message.ts';
import { useCancelRegistration, useRegistration } from '../api/registrations.ts';
import { RegistrationChange } from '../components/registration-change.tsx';
import { StaffTransfer } from '../components/staff-transfer.tsx';

/**
 * After a transfer the money of a cancellation goes back to each payer (docs/decisions/0056, later):
 * the server's split, said from staff's side ("você" of the runner's screens is the holder here).
 */
function splitText(back: PainelRegistrationDetail['devolucao_cancelamento'] | undefined): string | null {
  return back?.devolvido_a_quem_pagou
    ? `${formatReais(back.devolvido_a_voce ?? 0)} voltam para o titular da inscrição, ${formatReais(back.devolvido_a_quem_pagou)} para quem pagou a inscrição antes da transferência`
    : null;
}

const dl = 'grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm';
const card = 'rounded-lg border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900';

/**
 * One registration: the participant, how it was paid, and "Cancelar inscrição" for one bought on the
 * direct path (the whole charge goes back; one paid inside an order is cancelled with its order).
 */
export default function RegistrationPage() {
  const id = Number(useParams().id);
  const registration = useRegistration(id);
  const cancel = useCancelRegistration(id);
  const [reason, setReason] = useState('');
  // Cancelling returns the payment: only roles allowed to move money see the button.
  const canRefund = useStaffCan('devolver_pagamento');
  // Places and shirts of an event: who runs events changes them.
  const canChange = useStaffCan('eventos');

  if (registration.isPending) return <p role="status">Carregando inscrição…</p>;
  if (registration.isError) return <p role="alert">{errorMessage(registration.error)}</p>;
  const r = registration.data;
  const p = r.inscricao;
  const how = r.pagamento.metodo === 'pix' ? 'por Pix' : 'no cartão de crédito';
  // A free registration (docs/decisions/0028): cancelling only frees the place.
  const nothingPaid = r.pagamento.valor === 0;
  // What cancelling returns: everything paid for it (a transfer's and a change's charges too), split by
  // payer after a transfer (docs/decisions/0056, later).
  const back = r.devolucao_cancelamento;
  const amount = back?.valor_devolvido ?? r.pagamento.valor;
  const split = splitText(back);
  const giveBack = nothingPaid
    ? 'liberar a vaga (gratuita: nada a devolver)'
    : split
      ? `devolver ${formatReais(amount)} (${split})`
      : `devolver ${formatReais(amount)} ${how}`;
  const doneSplit = splitText(cancel.data?.devolucao_cancelamento);
  const others = r.cancela.filter((c) => c.id !== p.id);

  const confirmCancel = () => {
    const names = r.cancela.map((c) => `nº ${c.id} (${c.nome_completo})`).join(', ');
    const question =
      r.cancela.length > 1
        ? `O pagamento pagou ${r.cancela.length} inscrições: ${names}. Cancelar todas e ${giveBack}?`
        : `Cancelar a inscrição nº ${p.id} de ${p.nome_completo} e ${giveBack}?`;
    if (!window.confirm(question)) return;
    cancel.mutate(reason.trim() ? { motivo: reason.trim() } : {});
  };

  return (
    <section className="flex flex-col gap-4">
      <header className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="text-2xl font-bold">Inscrição nº {p.id}</h1>
        <p>
          Situação:{' '}
          <strong data-testid="registration-status">
            {p.cancelamento ? 'Cancelada' : p.retirada ? 'Kit retirado' : 'Confirmada'}
          </strong>
        </p>
      </header>

      {p.cancelamento ? (
        <p className={`${card} font-semibold text-red-700 dark:text-red-400`}>
          Cancelada em {formatDateTime(p.cancelamento.em)}
          {p.cancelamento.motivo ? ` — motivo: ${p.cancelamento.motivo}` : ''}.
        </p>
      ) : null}

      <div className="grid gap-4 md:grid-cols-2">
        <div className={card}>
          <h2 className="mb-2 font-semibold">Participante</h2>
          <dl className={dl}>
            <dt>Nome</dt>
            <dd>{p.nome_completo}</dd>
            <dt>CPF</dt>
            <dd>{p.cpf}</dd>
            <dt>E-mail</dt>
            <dd>{p.email}</dd>
            <dt>Telefone</dt>
            <dd>{p.numero_contato}</dd>
            <dt>Evento</dt>
            <dd>
              <Link to={`/painel/eventos/${r.evento.id}`} className={linkClass}>
                {r.evento.nome}
              </Link>
            </dd>
            <dt>Categorias</dt>
            <dd>{p.categorias.map((c) => c.nome).join(', ')}</dd>
            <dt>Camisa</dt>
            <dd>{p.tamanho_camisa ?? '—'}</dd>
            <dt>Kit</dt>
            <dd>
              {p.retirada
                ? `Retirado em ${formatDateTime(p.retirada.at)} por ${p.retirada.staff_name}`
                : 'Pendente'}
            </dd>
            <dt>Inscrito em</dt>
            <dd>{formatDateTime(p.criado_em)}</dd>
          </dl>
        </div>
        <div className={card}>
          <h2 className="mb-2 font-semibold">Pagamento</h2>
          <dl className={dl}>
            <dt>Forma</dt>
            <dd>{PAYMENT_METHOD_LABEL[r.pagamento.metodo]}</dd>
            <dt>Valor</dt>
            <dd>
              {p.vaga_de_equipe
                ? nothingPaid
                  ? `Paga pela equipe ${p.equipe ?? ''}`.trim()
                  : `${formatReais(r.pagamento.valor)}: a parte do corredor (o restante pago pela equipe)`
                : nothingPaid
                  ? 'Gratuita'
                  : formatReais(r.pagamento.valor)}
            </dd>
            <dt>Situação</dt>
            <dd data-testid="payment-status">{r.pagamento.status}</dd>
            <dt>Identificador</dt>
            <dd className="break-all">{r.pagamento.txid}</dd>
            {p.pedido_id ? (
              <>
                <dt>Pedido</dt>
                <dd>
                  <Link to={`/painel/pedidos/${p.pedido_id}`} className={linkClass}>
                    Pedido nº {p.pedido_id}
                  </Link>
                </dd>
              </>
            ) : null}
            {r.pagamento.devolucao ? (
              <>
                <dt>Devolução</dt>
                <dd data-testid="refund">
                  {formatReais(r.pagamento.devolucao.valor)} — {r.pagamento.devolucao.status}
                </dd>
              </>
            ) : null}
          </dl>
        </div>
      </div>

      {r.historico && r.historico.length > 0 ? (
        <section aria-labelledby="historico-titulo" className={card}>
          <h2 id="historico-titulo" className="mb-2 font-semibold">
            Histórico de alterações
          </h2>
          <ul className="list-disc pl-5 text-sm">
            {r.historico.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </section>
      ) : null}

      {canChange && !p.cancelamento && !p.retirada ? (
        <section aria-labelledby="alterar-titulo" className={card}>
          <h2 id="alterar-titulo" className="mb-2 font-semibold">
            Alterar distância ou camisa
          </h2>
          <RegistrationChange registration={r} />
        </section>
      ) : null}

      {canChange && !p.cancelamento && !p.retirada ? (
        <section aria-labelledby="transferir-titulo" className={card}>
          <h2 id="transferir-titulo" className="mb-2 font-semibold">
            Transferir a pedido do corredor
          </h2>
          <StaffTransfer id={r.inscricao.id} />
        </section>
      ) : null}

      <section aria-labelledby="cancelar-titulo" className={card}>
        <h2 id="cancelar-titulo" className="mb-2 font-semibold">
          Cancelamento
        </h2>
        {r.impedimento_cancelamento ? (
          <p className="text-sm">
            {r.impedimento_cancelamento}
            {p.pedido_id && !p.cancelamento ? (
              <>
                {' '}
                <Link to={`/painel/pedidos/${p.pedido_id}`} className={linkClass}>
                  Abrir o pedido nº {p.pedido_id}
                </Link>
              </>
            ) : null}
          </p>
        ) : !canRefund ? (
          <p className="text-sm">
            Cancelar uma inscrição devolve o pagamento: só administradores podem fazer isso.
          </p>
        ) : (
          <>
            <p className="mb-3 text-sm">
              {nothingPaid
                ? 'Cancelar libera a vaga e a camisa (inscrição gratuita: nada a devolver) e avisa o comprador por e-mail.'
                : split
                  ? `Cancelar devolve tudo o que foi pago (${formatReais(amount)}): ${split}, cada parte pelo meio com que foi paga; libera a vaga e a camisa, e avisa por e-mail o titular e quem pagou.`
                  : `Cancelar devolve o pagamento inteiro (${formatReais(amount)} ${how}), libera a vaga e a camisa, e avisa o comprador por e-mail.`}
              {others.length
                ? ` Este pagamento também pagou ${others.map((c) => `a inscrição nº ${c.id} (${c.nome_completo})`).join(', ')}: ela${others.length > 1 ? 's serão canceladas' : ' será cancelada'} junto.`
                : ''}
            </p>
            <div className="mb-3 max-w-md">
              <FormField
                label="Motivo do cancelamento (opcional)"
                value={reason}
                maxLength={300}
                onChange={(e) => setReason(e.target.value)}
              />
            </div>
            <button
              type="button"
              className={secondaryButtonClass}
              disabled={cancel.isPending}
              onClick={confirmCancel}
            >
              Cancelar inscrição
            </button>
          </>
        )}
        {cancel.isError ? <FormStatus tone="error" message={errorMessage(cancel.error)} /> : null}
        {cancel.isSuccess ? (
          <FormStatus
            tone="success"
            message={
              doneSplit
                ? `Inscrição cancelada; a devolução foi pedida: ${doneSplit}.`
                : 'Inscrição cancelada; a devolução do pagamento foi pedida.'
            }
          />
        ) : null}
      </section>

      <Link to={`/painel/eventos/${r.evento.id}`} className={linkClass}>
        Voltar aos participantes
      </Link>
    </section>
  );
}
