import { formatDateTime } from '../../../../lib/format.ts';
import { errorMessage } from '../../shell/utils/error-message.ts';
import { useOrderLabel } from '../api/labels.ts';

/**
 * The order's shipping label: bought (carrier, tracking code), cancelled with the order, or still
 * bought because the carrier refused to cancel it, and why (docs/decisions/0048).
 */
export function OrderLabel({
  orderId,
  cancelled,
  className,
}: {
  orderId: number;
  cancelled: boolean;
  className: string;
}) {
  const label = useOrderLabel(orderId, cancelled);
  const l = label.data;
  return (
    <section aria-labelledby="etiqueta-titulo" className={className}>
      <h2 id="etiqueta-titulo" className="mb-2 font-semibold">
        Etiqueta de envio
      </h2>
      {label.isPending ? <p role="status">Carregando etiqueta...</p> : null}
      {label.isError ? <p role="alert">{errorMessage(label.error)}</p> : null}
      {l === null ? <p className="text-sm">Nenhuma etiqueta comprada.</p> : null}
      {l ? (
        <div className="flex flex-col gap-1 text-sm">
          <p>
            <span className="font-semibold">
              {l.situacao === 'cancelada'
                ? 'Etiqueta cancelada'
                : l.situacao === 'comprada'
                  ? 'Etiqueta comprada'
                  : 'Etiqueta em compra'}
            </span>
            {' · '}
            {l.transportadora}
            {l.situacao === 'cancelada' && l.cancelada_em ? ` em ${formatDateTime(l.cancelada_em)}` : ''}
            {l.situacao === 'comprada' && l.comprada_em ? ` em ${formatDateTime(l.comprada_em)}` : ''}
          </p>
          {l.codigo_rastreio ? <p className="font-mono">Rastreio: {l.codigo_rastreio}</p> : null}
          {l.cancelamento_recusado ? (
            <p role="alert" className="text-red-700 dark:text-red-400">
              Etiqueta não cancelada: {l.cancelamento_recusado}
            </p>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
