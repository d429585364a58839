import type { CarrierReturn } from '@passada/core/contracts/returns';
import { type FormEvent, useState } from 'react';
import {
  FormField,
  FormStatus,
  SelectField,
  secondaryButtonClass,
} from '../../../../components/form-field.tsx';
import { formatReais } from '../../../../components/price.tsx';
import { formatDateTime } from '../../../../lib/format.ts';
import { useStaffCan } from '../../shell/api/auth.ts';
import { errorMessage } from '../../shell/utils/error-message.ts';
import { useOrderRefunds, useRefundOrderPart } from '../api/orders.ts';

/** What each refund status means to staff. */
const REFUND_STATUS_LABEL: Record<string, string> = {
  PENDENTE: 'A enviar ao provedor',
  ENVIANDO: 'Enviando ao provedor',
  EM_PROCESSAMENTO: 'Em processamento no banco',
  DEVOLVIDO: 'Devolvido',
  NAO_REALIZADO: 'Não realizado: confira no provedor',
};

/**
 * Why the money goes back, as the nota needs it (docs/decisions/0059, later): nothing came back (a price
 * reduced after the sale), or the carrier brought the parcel back refused, in full or in part, or lost it.
 */
const CARRIER_RETURN_OPTIONS: Array<{ value: CarrierReturn | ''; label: string }> = [
  { value: '', label: 'Não voltou nada: desconto ou ajuste depois da venda' },
  { value: 'recusa_total', label: 'A transportadora devolveu o pacote: recusado inteiro na entrega' },
  { value: 'recusa_parcial', label: 'A transportadora devolveu parte: recusado em parte na entrega' },
  { value: 'extravio', label: 'O pacote foi extraviado pela transportadora' },
];

/** "12,34" or "12.34" → 12.34; NaN when it is not a number of reais. */
function parseReais(text: string): number {
  const clean = text.trim().replace(/^R\$\s*/, '');
  const normalised = clean.includes(',') ? clean.replace(/\./g, '').replace(',', '.') : clean;
  return /^\d+(\.\d{1,2})?$/.test(normalised) ? Number(normalised) : Number.NaN;
}

/**
 * The order page's refunds (docs/decisions/0040): paid, refunded and left, every refund with who asked,
 * when, its status and its id at the provider, and "Reembolsar parte" (any amount up to what is left) for
 * roles that may return payments. The server checks the amount, and that the list the screen saw is current.
 */
export function OrderRefundsSection({ orderId, className }: { orderId: number; className: string }) {
  const refunds = useOrderRefunds(orderId);
  const refund = useRefundOrderPart(orderId);
  const canRefund = useStaffCan('devolver_pagamento');
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [carrier, setCarrier] = useState<CarrierReturn | ''>('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  if (refunds.isPending) return <p role="status">Carregando reembolsos…</p>;
  if (refunds.isError) return <p role="alert">{errorMessage(refunds.error)}</p>;
  const r = refunds.data;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setDone(null);
    const valor = parseReais(amount);
    if (!(valor > 0)) return setError('Informe um valor em reais, por exemplo 25,90.');
    if (valor > r.restante)
      return setError(`O valor passa do que resta do pagamento (${formatReais(r.restante)}).`);
    if (reason.trim().length < 3) return setError('Informe o motivo do reembolso.');
    if (!window.confirm(`Reembolsar ${formatReais(valor)} ao cliente?`)) return;
    try {
      await refund.mutateAsync({
        valor,
        motivo: reason.trim(),
        reembolsos_vistos: r.reembolsos.length,
        ...(carrier ? { retorno_transportadora: carrier } : {}),
      });
      setAmount('');
      setReason('');
      setCarrier('');
      setDone(`Reembolso de ${formatReais(valor)} pedido ao provedor.`);
    } catch (err) {
      setError(errorMessage(err));
    }
  };

  return (
    <section className={className} aria-labelledby="order-refunds-title">
      <h2 id="order-refunds-title" className="mb-2 font-semibold">
        Reembolsos
      </h2>
      <dl className="mb-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt>Pago</dt>
        <dd data-testid="refunds-paid">{formatReais(r.pago)}</dd>
        <dt>Reembolsado</dt>
        <dd data-testid="refunds-refunded">{formatReais(r.reembolsado)}</dd>
        <dt>Resta</dt>
        <dd data-testid="refunds-left">{formatReais(r.restante)}</dd>
      </dl>
      {r.reembolsos.length ? (
        <table className="mb-3 w-full text-left text-sm">
          <caption className="sr-only">Reembolsos do pedido</caption>
          <thead>
            <tr>
              <th scope="col">Valor</th>
              <th scope="col">Por</th>
              <th scope="col">Quando</th>
              <th scope="col">Status</th>
              <th scope="col">Id no provedor</th>
            </tr>
          </thead>
          <tbody>
            {r.reembolsos.map((row) => (
              <tr key={row.id} title={row.motivo}>
                <td>{formatReais(row.valor)}</td>
                <td>{row.por ?? 'Regra da loja (cliente)'}</td>
                <td>{formatDateTime(row.em)}</td>
                <td>{REFUND_STATUS_LABEL[row.status] ?? row.status}</td>
                <td className="font-mono text-xs">{row.id_provedor ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="mb-3 text-sm">Nenhum reembolso.</p>
      )}
      {canRefund && r.restante > 0 ? (
        <form onSubmit={submit} className="flex max-w-md flex-col gap-2">
          <FormField
            label="Valor a reembolsar (R$)"
            inputMode="decimal"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
          />
          <FormField label="Motivo do reembolso" value={reason} onChange={(e) => setReason(e.target.value)} />
          <SelectField
            label="O pacote voltou pela transportadora?"
            value={carrier}
            onChange={(e) => setCarrier(e.target.value as CarrierReturn | '')}
          >
            {CARRIER_RETURN_OPTIONS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </SelectField>
          <FormStatus message={error} tone="error" />
          <FormStatus message={done} tone="success" />
          <button type="submit" className={secondaryButtonClass} disabled={refund.isPending}>
            Reembolsar parte
          </button>
        </form>
      ) : null}
    </section>
  );
}
