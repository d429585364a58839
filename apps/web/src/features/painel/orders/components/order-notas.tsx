import { FISCAL_KIND_LABELS, FISCAL_STATUS_LABELS } from '@passada/core/contracts/fiscal';
import { FormStatus, linkClass, secondaryButtonClass } from '../../../../components/form-field.tsx';
import { formatDateTime } from '../../../../lib/format.ts';
import { errorMessage } from '../../shell/utils/error-message.ts';
import { useOrderNotas, useRetryNota } from '../api/notas.ts';

const keyGroups = (key: string) => key.replace(/(.{4})(?=.)/g, '$1 ');

/** The order's notas fiscais: authorised (key, DANFE, XML), pending with the reason, or stopped with a retry. */
export function OrderNotas({ orderId, className }: { orderId: number; className: string }) {
  const notas = useOrderNotas(orderId);
  const retry = useRetryNota(orderId);
  return (
    <section aria-labelledby="notas-titulo" className={className}>
      <h2 id="notas-titulo" className="mb-2 font-semibold">
        Notas fiscais
      </h2>
      {notas.isPending ? <p role="status">Carregando notas...</p> : null}
      {notas.isError ? <p role="alert">{errorMessage(notas.error)}</p> : null}
      {notas.data && notas.data.length === 0 ? (
        <p className="text-sm">Nenhuma nota ainda: ela é emitida logo depois do pagamento.</p>
      ) : null}
      <ul className="flex flex-col gap-3 text-sm">
        {notas.data?.map((n) => {
          const name = `${FISCAL_KIND_LABELS[n.tipo]}${n.numero ? ` nº ${n.numero}` : ''}`;
          return (
            <li key={n.id} aria-label={name}>
              <p>
                <span className="font-semibold">{name}</span>
                {n.inscricao_id ? ` (inscrição nº ${n.inscricao_id})` : ''} ·{' '}
                <span data-testid={`nota-status-${n.id}`}>{FISCAL_STATUS_LABELS[n.status]}</span>
                {n.autorizada_em ? ` em ${formatDateTime(n.autorizada_em)}` : ''}
              </p>
              {n.chave ? <p className="font-mono break-all">Chave de acesso: {keyGroups(n.chave)}</p> : null}
              {n.motivo ? <p>{n.motivo}</p> : null}
              {n.xml_url ? (
                <p className="flex gap-3">
                  {n.pdf_url ? (
                    <a className={linkClass} href={n.pdf_url} target="_blank" rel="noreferrer">
                      {n.tipo === 'nfse' ? 'NFS-e (PDF)' : 'DANFE (PDF)'}
                    </a>
                  ) : null}
                  <a className={linkClass} href={n.xml_url} target="_blank" rel="noreferrer">
                    {n.tipo === 'nfe_evento' ? 'XML do evento' : 'XML'}
                  </a>
                </p>
              ) : null}
              {n.status === 'erro' || n.status === 'pendente' ? (
                <button
                  type="button"
                  className={`${secondaryButtonClass} mt-1`}
                  disabled={retry.isPending}
                  onClick={() => retry.mutate(n.id)}
                >
                  Tentar emitir de novo
                </button>
              ) : null}
            </li>
          );
        })}
      </ul>
      {retry.isError ? <FormStatus tone="error" message={errorMessage(retry.error)} /> : null}
    </section>
  );
}
