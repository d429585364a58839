import type { PixCreateResponse } from '@passada/core/contracts/payments';
import { formatBRL } from '@passada/core/money';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { ApiRequestError } from '../../lib/api.ts';
import { secondaryButtonClass } from '../form-field.tsx';
import {
  type ChargeStatus,
  FINAL_STATUSES,
  type Purpose,
  pixStatusQuery,
  useCreatePix,
  usePixStatus,
  useSimulatedPayments,
  useSimulatePixPayment,
} from './payments-api.ts';
import { PixCountdown, useSecondsLeft } from './pix-countdown.tsx';

const STATUS_TEXT: Record<ChargeStatus, string> = {
  ATIVA: 'Aguardando pagamento...',
  CONCLUIDA: 'Pagamento confirmado!',
  REMOVIDA_PELO_USUARIO_RECEBEDOR: 'Cobrança cancelada.',
  REMOVIDA_PELO_PSP: 'Cobrança cancelada pelo banco.',
  EXPIRADA: 'Cobrança expirada. Gere um novo Pix.',
  RECUSADA: 'Pagamento recusado.',
  EM_ANALISE: 'Pagamento em análise...',
  DEVOLVIDA: 'Pagamento devolvido: o valor volta para a sua conta. Gere um novo Pix.',
  FALHOU: 'Não foi possível gerar a cobrança. Gere um novo Pix.',
};

function errorMessage(err: unknown, fallback: string): string {
  return err instanceof ApiRequestError && err.body?.detail ? err.body.detail : fallback;
}

export interface PixPanelProps {
  finalidade: Purpose;
  draft: unknown;
  totalCents: number;
  descricao: string;
  onPaid(result: { txid: string; fulfilledId?: number }): void;
  onError?(message: string): void;
}

/**
 * Creates the Pix charge on mount, shows its QR code, copy-and-paste code and the time left to pay, and
 * waits for payment. Once the charge expires (or ends unpaid) the buyer can ask for a new one.
 */
export function PixPanel({ finalidade, draft, totalCents, descricao, onPaid, onError }: PixPanelProps) {
  const [charge, setCharge] = useState<PixCreateResponse | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const simulated = useSimulatedPayments();
  const createPix = useCreatePix();
  const simulatePayment = useSimulatePixPayment();
  const txid = charge?.txid ?? null;
  const { data: answer } = usePixStatus(txid);
  const status = charge ? answer.status : null;
  const codeId = useId();
  // Refs survive StrictMode's mount–unmount–mount, so one panel creates exactly one charge and
  // reports it paid once.
  const started = useRef(false);
  const reported = useRef(false);
  const request = { purpose: finalidade, draft, totalCents, description: descricao };
  const latest = useRef({ onPaid, onError, request });
  latest.current = { onPaid, onError, request };

  const fail = (message: string) => {
    if (latest.current.onError) latest.current.onError(message);
    else setError(message);
  };
  const failRef = useRef(fail);
  failRef.current = fail;

  const { mutateAsync } = createPix;
  /** A charge for the page's draft; for a new one the server withdraws this account's earlier one. */
  const generate = useCallback(() => {
    setCopied(false);
    // mutateAsync, not mutate: its promise settles even if StrictMode detached the observer meanwhile.
    mutateAsync(latest.current.request)
      .then(setCharge)
      .catch((err: unknown) => failRef.current(errorMessage(err, 'Erro ao gerar o Pix.')));
  }, [mutateAsync]);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    generate();
  }, [generate]);

  useEffect(() => {
    if (!txid || answer.status !== 'CONCLUIDA' || reported.current) return;
    reported.current = true;
    const fulfilledId = answer.pedido_id ?? answer.inscricao_id;
    latest.current.onPaid(fulfilledId === undefined ? { txid } : { txid, fulfilledId });
  }, [txid, answer]);

  const finished = status !== null && FINAL_STATUSES.has(status);
  const left = useSecondsLeft(charge?.expira_em);
  const timedOut = left === 0;
  // Past the deadline on this device: ask the server at once, which ends the charge at the provider.
  const queryClient = useQueryClient();
  useEffect(() => {
    if (timedOut && txid) void queryClient.invalidateQueries({ queryKey: pixStatusQuery(txid).queryKey });
  }, [timedOut, txid, queryClient]);
  /** No payment can arrive any more: the code is hidden and a new charge offered. */
  const over = (timedOut && status === 'ATIVA') || (finished && status !== 'CONCLUIDA');

  const copy = async () => {
    if (!charge) return;
    try {
      await navigator.clipboard.writeText(charge.pix_copiaecola);
      setCopied(true);
    } catch {
      // Without clipboard access the read-only box still lets the buyer select the code by hand.
      setCopied(false);
    }
  };

  const simulate = () => {
    if (!txid) return;
    simulatePayment.mutate(txid, {
      onError: (err) => fail(errorMessage(err, 'Erro ao simular o pagamento.')),
    });
  };

  if (error) {
    return (
      <p role="alert" className="font-medium text-red-700 dark:text-red-400">
        {error}
      </p>
    );
  }
  if (!charge) {
    return <p role="status">Gerando o Pix...</p>;
  }
  const expired = over && (timedOut || status === 'EXPIRADA');
  return (
    <section aria-label="Pagamento com Pix" className="flex flex-col items-center gap-4">
      {over ? null : (
        <p className="text-lg font-semibold">Valor: {formatBRL(Math.round(charge.valor * 100))}</p>
      )}
      {/* Kept in one place whatever follows, so it can say when the code expired. */}
      {left === null ? null : <PixCountdown secondsLeft={left} />}
      {over ? (
        expired ? (
          <p className="text-lg font-semibold">Pix expirado</p>
        ) : null
      ) : (
        <>
          <img
            src={charge.qrcode_base64}
            alt="QR Code Pix"
            width={240}
            height={240}
            className="rounded-lg bg-white p-2"
          />
          <div className="flex w-full max-w-md flex-col gap-1">
            <label htmlFor={codeId} className="text-sm font-medium">
              Pix copia e cola
            </label>
            <textarea
              id={codeId}
              readOnly
              rows={3}
              value={charge.pix_copiaecola}
              onFocus={(e) => e.currentTarget.select()}
              className="w-full resize-none rounded-lg border border-stone-300 bg-stone-50 px-3 py-2 font-mono text-xs break-all dark:border-stone-700 dark:bg-stone-800"
            />
            <button
              type="button"
              onClick={() => void copy()}
              className="self-start rounded-lg border border-stone-300 px-4 py-2 font-medium hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-brand-700 dark:border-stone-700 dark:hover:bg-stone-800"
            >
              Copiar código
            </button>
            {copied ? <p role="status">Código copiado!</p> : null}
          </div>
        </>
      )}
      {/* "Pix expirado" already says what the status line would. */}
      <p role="status" aria-live="polite" className="font-medium">
        {status && !expired ? STATUS_TEXT[status] : null}
        {finished && status !== 'CONCLUIDA' && answer.motivo ? ` ${answer.motivo}` : null}
      </p>
      {over ? (
        <button
          type="button"
          onClick={generate}
          disabled={createPix.isPending}
          className={secondaryButtonClass}
        >
          {createPix.isPending ? 'Gerando o Pix...' : 'Gerar novo Pix'}
        </button>
      ) : simulated && !finished ? (
        <button
          type="button"
          onClick={simulate}
          disabled={simulatePayment.isPending}
          className="rounded-lg bg-stone-800 px-5 py-2 font-semibold text-white hover:bg-stone-700 disabled:opacity-60 dark:bg-stone-200 dark:text-stone-900"
        >
          Simular pagamento
        </button>
      ) : null}
    </section>
  );
}
