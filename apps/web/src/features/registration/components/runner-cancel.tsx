import type { CancellationQuoteWire, RefundByPayerWire } from '@passada/core/contracts/after-sale';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { FormStatus, secondaryButtonClass } from '../../../components/form-field.tsx';
import { formatReais } from '../../../components/price.tsx';
import { ApiRequestError } from '../../../lib/api.ts';
import { cancellationQuery, useCancelRegistration } from '../api/after-sale-api.ts';

/**
 * The money split by payer, as the server said it: after a transfer part of it goes back to whoever
 * paid for the registration before. Null when everything is the runner's.
 */
export function splitText(q: RefundByPayerWire): string | null {
  return q.devolvido_a_quem_pagou
    ? `${formatReais(q.devolvido_a_voce ?? 0)} voltam para você, ${formatReais(q.devolvido_a_quem_pagou)} para quem pagou a inscrição`
    : null;
}

/** What cancelling returns, said before the runner confirms (the quote, split by payer after a transfer). */
export function quoteText(q: CancellationQuoteWire): string {
  const split = splitText(q);
  if (split) return `Se cancelar: ${split}, pelo mesmo meio de pagamento.`;
  return q.valor_devolvido > 0
    ? `Você recebe de volta ${formatReais(q.valor_devolvido)} pelo mesmo meio de pagamento.`
    : 'Pelas regras do evento, não há valor a devolver.';
}

/**
 * What the cancellation returned, as the server answered it: a transferred registration's money goes
 * back to each payer (docs/decisions/0056), so both parts are said.
 */
export function cancelledText(after: CancellationQuoteWire): string {
  const split = splitText(after);
  if (split) return `Inscrição cancelada: ${split}, pelo mesmo meio de pagamento.`;
  return after.valor_devolvido > 0
    ? `Inscrição cancelada: ${formatReais(after.valor_devolvido)} voltam para você pelo mesmo meio de pagamento.`
    : 'Inscrição cancelada: pelas regras do evento, não há valor a devolver.';
}

/**
 * "Cancelar inscrição" on the lookup page: the amount that comes back is shown before the runner
 * confirms, and the server checks it again (docs/decisions/0035-runner-after-sale.md). `onCancelled`
 * gets the server's answer (what went back, and to whom).
 */
export function RunnerCancel(props: {
  registrationId: number;
  eventId: number;
  onCancelled: (after: CancellationQuoteWire) => void;
}) {
  const [asking, setAsking] = useState(false);
  const quote = useQuery({ ...cancellationQuery(props.registrationId), enabled: asking });
  const cancel = useCancelRegistration(props.registrationId, props.eventId);
  const [error, setError] = useState<string | null>(null);

  if (!asking)
    return (
      <button type="button" className={`${secondaryButtonClass} mt-4`} onClick={() => setAsking(true)}>
        Cancelar inscrição
      </button>
    );
  const q = quote.data;
  if (!q)
    return quote.isError ? (
      <FormStatus message="Não foi possível consultar o cancelamento." tone="error" />
    ) : null;
  if (!q.permitido) return <p className="mt-4 font-medium">{q.motivo}</p>;

  async function confirm(amount: number) {
    setError(null);
    try {
      props.onCancelled(await cancel.mutateAsync(amount));
    } catch (err) {
      setError(
        err instanceof ApiRequestError ? (err.body?.detail ?? err.message) : 'Não foi possível cancelar.',
      );
      await quote.refetch();
    }
  }

  return (
    <div className="mt-4 rounded-lg border border-stone-300 p-3 dark:border-stone-600">
      <p className="font-medium">{quoteText(q)}</p>
      {q.valor_retido > 0 ? (
        <p className="text-sm">
          O organizador retém {formatReais(q.valor_retido)}, conforme as regras do evento.
        </p>
      ) : null}
      {q.arrependimento ? (
        <p className="text-sm">Direito de arrependimento: até 7 dias da compra, todo o valor é devolvido.</p>
      ) : null}
      <p className="text-sm">A vaga e a camisa são liberadas e o QR code deixa de valer.</p>
      <FormStatus message={error} tone="error" />
      <div className="mt-2 flex gap-2">
        <button
          type="button"
          className={secondaryButtonClass}
          disabled={cancel.isPending}
          onClick={() => void confirm(q.valor_devolvido)}
        >
          Confirmar cancelamento
        </button>
        <button type="button" className={secondaryButtonClass} onClick={() => setAsking(false)}>
          Manter inscrição
        </button>
      </div>
    </div>
  );
}
