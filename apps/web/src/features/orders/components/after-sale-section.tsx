import { formatIsoDateBR } from '@passada/core/calendar';
import { MIN_CARD_TOTAL_CENTS } from '@passada/core/card';
import type { Order } from '@passada/core/contracts/orders';
import { type OrderReturn, RETURN_KIND_LABEL, RETURN_STATUS_LABEL } from '@passada/core/contracts/returns';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { secondaryButtonClass } from '../../../components/button-classes.ts';
import { CardForm } from '../../../components/payments/card-form.tsx';
import { useCreatePix } from '../../../components/payments/payments-api.ts';
import { formatReais } from '../../../components/price.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { useSession } from '../../../lib/session.tsx';
import { afterSaleQuery, useAfterSale, useRequestReturn, useWithdraw } from '../api/after-sale.ts';
import { ItemsForm } from './after-sale-items-form.tsx';
import { ExchangeForm } from './exchange-form.tsx';

/**
 * A positive exchange difference not yet paid: a Pix or a card (the checkout's card form) for exactly
 * what the server priced (docs/decisions/0040). A card paid, the order's after-sale is read again and
 * the request shows the difference paid.
 */
function PayDifference({ orderId, request }: { orderId: number; request: OrderReturn }) {
  const pix = useCreatePix();
  const client = useQueryClient();
  const { profile } = useSession();
  const [byCard, setByCard] = useState(false);
  const difference = request.troca?.diferenca ?? 0;
  const totalCents = Math.round(difference * 100);
  const description = `Diferença da troca nº ${request.id}`;
  return (
    <div className="mt-1 flex flex-col gap-2">
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          className={secondaryButtonClass}
          disabled={pix.isPending}
          onClick={() => {
            setByCard(false);
            pix.mutate({ purpose: 'troca', draft: { solicitacao: request.id }, totalCents, description });
          }}
        >
          Pagar a diferença da troca nº {request.id} por Pix
        </button>
        {totalCents >= MIN_CARD_TOTAL_CENTS ? (
          <button
            type="button"
            className={secondaryButtonClass}
            aria-expanded={byCard}
            onClick={() => setByCard(true)}
          >
            Pagar a diferença da troca nº {request.id} com cartão
          </button>
        ) : null}
      </div>
      {pix.error ? (
        <p role="alert" className="text-red-700 dark:text-red-400">
          {pix.error.message}
        </p>
      ) : null}
      {pix.data && !byCard ? (
        <div className="mt-2 flex flex-col gap-1">
          <img
            src={pix.data.qrcode_base64}
            alt={`QR Code do Pix de ${formatReais(difference)}`}
            className="h-40 w-40"
          />
          <label className="flex flex-col text-xs">
            Pix copia e cola
            <input readOnly value={pix.data.pix_copiaecola} className="rounded border px-2 py-1 font-mono" />
          </label>
        </div>
      ) : null}
      {byCard ? (
        <CardForm
          finalidade="troca"
          draft={{ solicitacao: request.id }}
          totalCents={totalCents}
          produto={description}
          payer={{ email: profile?.email ?? '' }}
          onPaid={() => void client.invalidateQueries({ queryKey: afterSaleQuery(orderId).queryKey })}
        />
      ) : null}
    </div>
  );
}

function RequestLine({ orderId, request }: { orderId: number; request: OrderReturn }) {
  return (
    <li className="rounded-lg bg-stone-50 p-3 text-sm dark:bg-stone-900">
      <p className="font-semibold">
        {request.motivo === 'loja' ? 'Alteração feita pela loja' : RETURN_KIND_LABEL[request.tipo]} nº{' '}
        {request.id}: {RETURN_STATUS_LABEL[request.status]}
      </p>
      {request.motivo === 'loja' && request.descricao ? <p>Motivo: {request.descricao}</p> : null}
      <ul className="ml-4 list-disc">
        {request.itens.map((i) => (
          <li key={i.item_id}>
            {i.quantidade} × {i.produto} ({i.cor}, {i.tamanho})
          </li>
        ))}
      </ul>
      {request.codigo_postagem ? (
        <p>
          Código de postagem: <strong>{request.codigo_postagem}</strong>. {request.instrucoes}
        </p>
      ) : null}
      {request.troca ? (
        <div>
          <p>Você recebe em troca:</p>
          <ul className="ml-4 list-disc">
            {request.troca.itens.map((i) => (
              <li key={`${i.item_id}-${i.cor}-${i.tamanho}`}>
                {i.quantidade} × {i.produto} ({i.cor}, {i.tamanho})
              </li>
            ))}
          </ul>
          {request.troca.diferenca > 0 ? (
            <p>
              Diferença de preço: {formatReais(request.troca.diferenca)}
              {request.troca.diferenca_paga ? ' (paga)' : ' (a pagar antes do envio da troca)'}
            </p>
          ) : request.troca.diferenca < 0 ? (
            <p>Diferença a seu favor: {formatReais(-request.troca.diferenca)}, devolvida no envio da troca</p>
          ) : null}
          {request.troca.diferenca > 0 &&
          !request.troca.diferenca_paga &&
          request.status !== 'recusada' &&
          request.status !== 'trocada' ? (
            <PayDifference orderId={orderId} request={request} />
          ) : null}
          {request.troca.codigo_rastreio ? (
            <p>
              Troca enviada. Rastreio: <strong>{request.troca.codigo_rastreio}</strong>
            </p>
          ) : null}
        </div>
      ) : null}
      {request.motivo_recusa ? <p>Motivo da recusa: {request.motivo_recusa}</p> : null}
      {request.valor_reembolsado > 0 ? <p>Reembolsado {formatReais(request.valor_reembolsado)}</p> : null}
      {request.historico?.length ? (
        <details className="mt-1">
          <summary>Histórico da solicitação nº {request.id}</summary>
          <ol className="ml-4 list-decimal">
            {request.historico.map((h) => (
              <li key={`${h.status}-${h.em}`}>
                {RETURN_STATUS_LABEL[h.status]} em {formatDateTime(h.em)}
                {h.nota ? `: ${h.nota}` : ''}
              </li>
            ))}
          </ol>
        </details>
      ) : null}
    </li>
  );
}

/**
 * The order's after-sale (docs/decisions/0036): the requests so far, and the form to withdraw before
 * shipping or return after delivery. Deadlines and what is left come from the server.
 */
export function AfterSaleSection({ order }: { order: Order }) {
  const after = useAfterSale(order.id, order.status !== 'aguardando pagamento');
  const withdraw = useWithdraw(order.id);
  const requestReturn = useRequestReturn(order.id);
  const [done, setDone] = useState<OrderReturn | null>(null);
  // The forms stay folded until the buyer asks for one: a paid order is not an invitation to give it back.
  const [open, setOpen] = useState<'itens' | 'troca' | null>(null);
  const data = after.data;
  if (!data) return null;
  const mode = data.pode_desistir ? 'desistir' : data.pode_devolver ? 'devolver' : null;
  const error = withdraw.error ?? requestReturn.error;
  const finish = (r: OrderReturn) => {
    setDone(r);
    setOpen(null);
  };
  const opener = (which: 'itens' | 'troca', label: string) => (
    <button
      type="button"
      className={secondaryButtonClass}
      aria-expanded={open === which}
      onClick={() => setOpen(open === which ? null : which)}
    >
      {label}
    </button>
  );

  return (
    <section
      aria-label={`Trocas e devoluções do pedido ${order.id}`}
      className="mt-4 border-t pt-3 dark:border-stone-800"
    >
      {data.solicitacoes.length ? (
        <ul className="mt-2 flex flex-col gap-2" aria-label="Solicitações">
          {data.solicitacoes.map((r) => (
            <RequestLine key={r.id} orderId={order.id} request={r} />
          ))}
        </ul>
      ) : null}
      {done ? (
        <p role="status" className="mt-2 font-semibold">
          {done.tipo === 'desistencia'
            ? `Desistência nº ${done.id} registrada: o valor volta pela mesma forma de pagamento.`
            : done.tipo === 'troca'
              ? `Troca nº ${done.id} solicitada: a nova peça está reservada.${done.codigo_postagem ? ` Código de postagem: ${done.codigo_postagem}.` : ''}`
              : `Devolução nº ${done.id} solicitada.${done.codigo_postagem ? ` Código de postagem: ${done.codigo_postagem}.` : ''}`}{' '}
          Enviamos a confirmação por e-mail.
        </p>
      ) : null}
      {error ? (
        <p role="alert" className="mt-2 text-red-700 dark:text-red-400">
          {error.message}
        </p>
      ) : null}
      {mode || data.pode_trocar ? (
        <div className="mt-3">
          <h3 className="font-semibold">Direito de arrependimento: 7 dias</h3>
          {data.prazo_arrependimento ? (
            <p className="text-sm">
              Entregue em {formatIsoDateBR(data.entregue_em ?? '')}. Devolução por arrependimento até{' '}
              {formatIsoDateBR(data.prazo_arrependimento)}; por defeito até{' '}
              {formatIsoDateBR(data.prazo_defeito ?? '')}.
            </p>
          ) : (
            <p className="text-sm">
              Você pode desistir da compra até 7 dias depois de recebê-la. Antes do envio, a desistência
              cancela os itens escolhidos e o valor volta pela mesma forma de pagamento.
            </p>
          )}
          <div className="mt-2 flex flex-wrap gap-2">
            {mode ? opener('itens', mode === 'desistir' ? 'Quero desistir' : 'Quero devolver') : null}
            {data.pode_trocar ? opener('troca', 'Quero trocar') : null}
          </div>
        </div>
      ) : data.prazo_arrependimento ? (
        <p className="mt-2 text-sm">
          Entregue em {formatIsoDateBR(data.entregue_em ?? '')}. Devolução por arrependimento até{' '}
          {formatIsoDateBR(data.prazo_arrependimento)}; por defeito até{' '}
          {formatIsoDateBR(data.prazo_defeito ?? '')}.
        </p>
      ) : null}
      {mode && open === 'itens' ? (
        <ItemsForm
          order={order}
          data={data}
          mode={mode}
          withdraw={withdraw}
          requestReturn={requestReturn}
          onDone={finish}
        />
      ) : null}
      {data.pode_trocar && open === 'troca' ? (
        <ExchangeForm order={order} left={data.restantes} onDone={finish} />
      ) : null}
    </section>
  );
}
