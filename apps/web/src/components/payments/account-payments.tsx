import { formatBRL, reaisToCents } from '@passada/core/money';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { formatDateTime } from '../../lib/format.ts';
import { useSession } from '../../lib/session.tsx';
import {
  type AccountPayment,
  accountPaymentsQuery,
  type ChargeStatus,
  type Purpose,
} from './payments-api.ts';

const STATUS_LABEL: Partial<Record<ChargeStatus, string>> = {
  EM_ANALISE: 'Em análise pelo banco',
  RECUSADA: 'Recusado',
};

/** A returned payment says "Devolvido" only once the bank confirmed the money is back. */
function statusLabel(payment: AccountPayment): string {
  if (payment.status !== 'DEVOLVIDA') return STATUS_LABEL[payment.status] ?? payment.status;
  if (payment.devolucao?.status === 'DEVOLVIDO') return 'Devolvido';
  if (payment.devolucao?.status === 'NAO_REALIZADO') return 'Devolução não realizada';
  return 'Devolução em andamento';
}

const REFUND_LABEL: Record<string, string> = {
  EM_PROCESSAMENTO: 'Devolução solicitada ao banco',
  DEVOLVIDO: 'Valor devolvido',
  NAO_REALIZADO: 'Devolução não realizada: fale conosco',
};

const WHAT: Record<Purpose, string> = {
  pedido: 'pedidos',
  inscricao: 'inscrições',
  troca: 'pedidos',
  vagas_equipe: 'vagas de equipe',
};

function PaymentLine({ payment }: { payment: AccountPayment }) {
  const refund = payment.devolucao;
  return (
    <li className="rounded-lg border border-stone-200 p-4 dark:border-stone-800">
      <p className="flex flex-wrap items-baseline justify-between gap-2">
        <span className="font-semibold">
          {payment.metodo === 'pix' ? 'Pix' : 'Cartão de crédito'} de {formatBRL(reaisToCents(payment.valor))}
          {payment.parcelas && payment.parcelas > 1 ? ` em ${payment.parcelas}×` : null}
        </span>
        <span className="text-sm text-stone-700 dark:text-stone-300">
          {formatDateTime(payment.criado_em)}
        </span>
      </p>
      <p className="mt-1">
        <span className="font-medium">{statusLabel(payment)}</span>
        {payment.motivo ? `: ${payment.motivo}` : null}
      </p>
      {payment.status === 'EM_ANALISE' ? (
        <p className="mt-1 text-sm text-stone-700 dark:text-stone-300">
          Os itens ficam reservados até o banco responder; esta página se atualiza sozinha.
        </p>
      ) : null}
      {refund ? (
        <p className="mt-1 text-sm">
          {REFUND_LABEL[refund.status] ?? refund.status}: {formatBRL(reaisToCents(refund.valor))} em{' '}
          {formatDateTime(refund.em)}
        </p>
      ) : null}
    </li>
  );
}

type Group = 'andamento' | 'recusados' | 'devolvidos';

/** A refused card is not "in progress": it has a section of its own, as has money already back. */
function groupOf(payment: AccountPayment): Group {
  if (payment.status === 'RECUSADA') return 'recusados';
  if (payment.status === 'DEVOLVIDA' && payment.devolucao?.status === 'DEVOLVIDO') return 'devolvidos';
  return 'andamento';
}

const GROUPS: { id: Group; title: string; lead(what: string): string }[] = [
  {
    id: 'andamento',
    title: 'Pagamentos em andamento',
    lead: (what) =>
      `Pagamentos de ${what} em análise pelo banco ou com devolução a caminho nos últimos 30 dias.`,
  },
  {
    id: 'recusados',
    title: 'Pagamentos recusados',
    lead: (what) => `Pagamentos de ${what} dos últimos 30 dias que o banco recusou: nada foi cobrado.`,
  },
  {
    id: 'devolvidos',
    title: 'Pagamentos devolvidos',
    lead: (what) => `Pagamentos de ${what} dos últimos 30 dias devolvidos a você.`,
  },
];

/**
 * The account's payments that did not simply end paid (under review, refused, given back), so the buyer
 * always sees where the money is. Nothing shows while there are none.
 */
export function AccountPayments({ purpose, onSettled }: { purpose: Purpose; onSettled?(): void }) {
  const { token } = useSession();
  const { data } = useQuery({ ...accountPaymentsQuery, enabled: token !== null });
  const list = (Array.isArray(data) ? data : []).filter((p) => p.finalidade === purpose);

  // A payment leaving review has become an order or registration, or a refusal: the page reads again.
  const underReview = list.filter((p) => p.status === 'EM_ANALISE').map((p) => p.txid);
  const reviewKey = underReview.join(',');
  const previous = useRef<string[]>([]);
  const onSettledRef = useRef(onSettled);
  onSettledRef.current = onSettled;
  useEffect(() => {
    const now = reviewKey ? reviewKey.split(',') : [];
    if (previous.current.some((txid) => !now.includes(txid))) onSettledRef.current?.();
    previous.current = now;
  }, [reviewKey]);

  if (list.length === 0) return null;
  return (
    <div className="mb-6 flex flex-col gap-6">
      {GROUPS.map((group) => {
        const payments = list.filter((p) => groupOf(p) === group.id);
        return payments.length === 0 ? null : (
          <section key={group.id} aria-labelledby={`pagamentos-${group.id}`} className="flex flex-col gap-3">
            <h2 id={`pagamentos-${group.id}`} className="text-lg font-bold">
              {group.title}
            </h2>
            <p className="text-sm text-stone-700 dark:text-stone-300">{group.lead(WHAT[purpose])}</p>
            <ul className="flex flex-col gap-3">
              {payments.map((payment) => (
                <PaymentLine key={payment.txid} payment={payment} />
              ))}
            </ul>
          </section>
        );
      })}
    </div>
  );
}
