import type { PixCreateResponse, PixStatusResponse } from '@passada/core/contracts/payments';
import { formatBRL } from '@passada/core/money';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { ApiRequestError, apiFetch } from '../../lib/api.ts';
import { useSimulatedPayments } from './payments-api.ts';

/** Spec §9: the charge's status is read every 7 s. */
export const PIX_POLL_MS = 7000;

const STATUS_TEXT: Record<PixStatusResponse['status'], string> = {
  ATIVA: 'Aguardando pagamento...',
  CONCLUIDA: 'Pagamento confirmado!',
  REMOVIDA_PELO_USUARIO_RECEBEDOR: 'Cobrança cancelada.',
  REMOVIDA_PELO_PSP: 'Cobrança cancelada pelo banco.',
  EXPIRADA: 'Cobrança expirada. Gere um novo Pix.',
  RECUSADA: 'Pagamento recusado.',
};

/** A charge in these states can never become paid: polling it further is pointless. */
const FINAL: ReadonlySet<PixStatusResponse['status']> = new Set([
  'CONCLUIDA',
  'REMOVIDA_PELO_USUARIO_RECEBEDOR',
  'REMOVIDA_PELO_PSP',
  'EXPIRADA',
  'RECUSADA',
]);

function errorMessage(err: unknown, fallback: string): string {
  return err instanceof ApiRequestError && err.body?.detail ? err.body.detail : fallback;
}

export interface PixPanelProps {
  finalidade: 'pedido' | 'inscricao';
  draft: unknown;
  totalCents: number;
  descricao: string;
  onPaid(result: { txid: string; fulfilledId?: number }): void;
  onError?(message: string): void;
}

/** Creates the Pix charge on mount, shows its QR code and copy-and-paste code, and waits for payment. */
export function PixPanel({ finalidade, draft, totalCents, descricao, onPaid, onError }: PixPanelProps) {
  const [charge, setCharge] = useState<PixCreateResponse | null>(null);
  const [status, setStatus] = useState<PixStatusResponse['status'] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const [simulating, setSimulating] = useState(false);
  const simulated = useSimulatedPayments();
  const codeId = useId();
  // Refs survive StrictMode's mount–unmount–mount, so one panel creates exactly one charge.
  const started = useRef(false);
  const done = useRef(false);
  const latest = useRef({ onPaid, onError });
  latest.current = { onPaid, onError };

  const fail = useCallback((message: string) => {
    if (latest.current.onError) latest.current.onError(message);
    else setError(message);
  }, []);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    apiFetch<PixCreateResponse>('/api/pagar-pix/', {
      method: 'POST',
      body: { total: totalCents / 100, descricao, finalidade, [finalidade]: draft },
    })
      .then((created) => {
        setCharge(created);
        setStatus('ATIVA');
      })
      .catch((err: unknown) => fail(errorMessage(err, 'Erro ao gerar o Pix.')));
  }, [totalCents, descricao, finalidade, draft, fail]);

  const txid = charge?.txid;
  const check = useCallback(async () => {
    if (!txid || done.current) return;
    try {
      const answer = await apiFetch<PixStatusResponse>(`/api/status-pix/${txid}/`);
      if (done.current) return;
      setStatus(answer.status);
      if (FINAL.has(answer.status)) done.current = true;
      if (answer.status === 'CONCLUIDA') {
        const fulfilledId = answer.pedido_id ?? answer.inscricao_id;
        latest.current.onPaid(fulfilledId === undefined ? { txid } : { txid, fulfilledId });
      }
    } catch {
      // A failed poll is retried on the next tick; the charge stays payable meanwhile.
    }
  }, [txid]);

  const finished = status !== null && FINAL.has(status);
  useEffect(() => {
    if (!txid || finished) return;
    const timer = setInterval(() => void check(), PIX_POLL_MS);
    return () => clearInterval(timer);
  }, [txid, finished, check]);

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

  const simulate = async () => {
    if (!txid) return;
    setSimulating(true);
    try {
      await apiFetch(`/api/simulador/pix/${txid}/pagar`, { method: 'POST', auth: false });
      await check();
    } catch (err) {
      fail(errorMessage(err, 'Erro ao simular o pagamento.'));
    } finally {
      setSimulating(false);
    }
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
  return (
    <section aria-label="Pagamento com Pix" className="flex flex-col items-center gap-4">
      <p className="text-lg font-semibold">Valor: {formatBRL(Math.round(charge.valor * 100))}</p>
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
      <p role="status" aria-live="polite" className="font-medium">
        {status ? STATUS_TEXT[status] : null}
      </p>
      {simulated && !finished ? (
        <button
          type="button"
          onClick={() => void simulate()}
          disabled={simulating}
          className="rounded-lg bg-stone-800 px-5 py-2 font-semibold text-white hover:bg-stone-700 disabled:opacity-60 dark:bg-stone-200 dark:text-stone-900"
        >
          Simular pagamento
        </button>
      ) : null}
    </section>
  );
}
