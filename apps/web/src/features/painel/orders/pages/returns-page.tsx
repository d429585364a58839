import { type PainelReturn, RETURN_KIND_LABEL, RETURN_STATUS_LABEL } from '@passada/core/contracts/returns';
import { useState } from 'react';
import { Link } from 'react-router';
import { primaryButtonClass, secondaryButtonClass } from '../../../../components/button-classes.ts';
import { linkClass } from '../../../../components/form-field.tsx';
import { formatReais } from '../../../../components/price.tsx';
import {
  useMarkReturnPosted,
  useReceiveReturn,
  useRefundReturn,
  useRefuseReturn,
  useReturns,
  useSendReturnCode,
  useShipExchange,
} from '../api/returns.ts';

/** One request: receive the items (back to stock or not), refund any amount up to what is left, or refuse. */
function ReturnCard({ request }: { request: PainelReturn }) {
  const receive = useReceiveReturn();
  const refund = useRefundReturn();
  const refuse = useRefuseReturn();
  const posted = useMarkReturnPosted();
  const ship = useShipExchange();
  const sendCode = useSendReturnCode();
  const [tracking, setTracking] = useState('');
  const [postingCode, setPostingCode] = useState('');
  const [restock, setRestock] = useState<Record<number, boolean>>({});
  const [amount, setAmount] = useState(String(request.sugestao.toFixed(2)).replace('.', ','));
  const [why, setWhy] = useState('');
  // What the field says in reais; the button waits for an amount above zero and within what is left.
  const value = Number(amount.trim().replace(/\./g, '').replace(',', '.'));
  const amountOk = Number.isFinite(value) && value > 0 && value <= request.restante;
  const error = receive.error ?? refund.error ?? refuse.error ?? posted.error ?? ship.error ?? sendCode.error;
  const received =
    request.status === 'recebida' || request.status === 'reembolsada' || request.status === 'trocada';
  const waitingPosting = request.status === 'solicitada' || request.status === 'codigo_enviado';
  const exchange = request.troca;
  const refundable = !exchange || request.status === 'recebida';
  const title = `${RETURN_KIND_LABEL[request.tipo]} nº ${request.id}`;
  return (
    <article aria-label={title} className="rounded-xl border border-stone-200 p-4 dark:border-stone-800">
      <h2 className="text-lg font-bold">
        {title}: {RETURN_STATUS_LABEL[request.status]}
      </h2>
      <p className="text-sm">
        <Link to={`/painel/pedidos/${request.pedido}`} className={linkClass}>
          Pedido nº {request.pedido}
        </Link>{' '}
        · {request.cliente} · motivo: {request.motivo}
        {request.descricao ? ` (“${request.descricao}”)` : ''}
        {request.codigo_postagem ? ` · código de postagem ${request.codigo_postagem}` : ''}
      </p>
      <p className="text-sm">
        Pago {formatReais(request.pago)} · reembolsado {formatReais(request.reembolsado)} · resta{' '}
        {formatReais(request.restante)}
      </p>
      <ul className="my-2 flex flex-col gap-1">
        {request.itens.map((i) => (
          <li key={i.item_id} className="flex items-center gap-3 text-sm">
            {i.quantidade} × {i.produto} ({i.cor}, {i.tamanho}): {formatReais(i.valor)}
            {received ? (
              <span>{i.voltou_ao_estoque ? '· voltou ao estoque' : '· não voltou ao estoque'}</span>
            ) : (
              <label className="flex items-center gap-1">
                <input
                  type="checkbox"
                  checked={restock[i.item_id] ?? true}
                  onChange={(e) => setRestock({ ...restock, [i.item_id]: e.target.checked })}
                />
                {`Voltar ${i.produto} ao estoque`}
              </label>
            )}
          </li>
        ))}
      </ul>
      {exchange ? (
        <div className="my-2 text-sm">
          <p>Sai em troca (reservado):</p>
          <ul className="ml-4 list-disc">
            {exchange.itens.map((i) => (
              <li key={`${i.item_id}-${i.cor}-${i.tamanho}`}>
                {i.quantidade} × {i.produto} ({i.cor}, {i.tamanho})
              </li>
            ))}
          </ul>
          {exchange.diferenca !== 0 ? (
            <p>
              Diferença de preço: {formatReais(exchange.diferenca)}
              {exchange.diferenca > 0
                ? exchange.diferenca_paga
                  ? ' (paga pelo cliente)'
                  : ' (o cliente ainda não pagou)'
                : ' (volta ao cliente no envio da troca)'}
            </p>
          ) : null}
          {exchange.codigo_rastreio ? <p>Troca enviada: rastreio {exchange.codigo_rastreio}</p> : null}
        </div>
      ) : null}
      {error ? (
        <p role="alert" className="text-red-700 dark:text-red-400">
          {error.message}
        </p>
      ) : null}
      {waitingPosting ? (
        <form
          className="my-2 flex flex-wrap items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            sendCode.mutate(
              { id: request.id, body: { codigo: postingCode, versao: request.versao } },
              { onSuccess: () => setPostingCode('') },
            );
          }}
        >
          <label className="flex flex-col text-sm">
            {`Código de postagem da ${title}`}
            <input
              value={postingCode}
              placeholder="número da autorização"
              onChange={(e) => setPostingCode(e.target.value)}
              className="w-48 rounded border border-stone-300 px-2 py-1 dark:border-stone-700 dark:bg-stone-900"
            />
          </label>
          <button
            type="submit"
            className={secondaryButtonClass}
            disabled={sendCode.isPending || postingCode.trim() === ''}
          >
            {request.codigo_postagem ? 'Trocar o código e avisar o cliente' : 'Enviar o código ao cliente'}
          </button>
        </form>
      ) : null}
      <div className="flex flex-wrap items-end gap-2">
        {waitingPosting ? (
          <button
            type="button"
            className={secondaryButtonClass}
            disabled={posted.isPending}
            onClick={() => posted.mutate({ id: request.id, body: { versao: request.versao } })}
          >
            Marcar como postada
          </button>
        ) : null}
        {exchange && !exchange.codigo_rastreio && request.status !== 'recusada' ? (
          <>
            <label className="flex flex-col text-sm">
              {`Código de rastreio da troca ${request.id}`}
              <input
                value={tracking}
                placeholder="AB123456785BR"
                onChange={(e) => setTracking(e.target.value)}
                className="w-40 rounded border border-stone-300 px-2 py-1 dark:border-stone-700 dark:bg-stone-900"
              />
            </label>
            <button
              type="button"
              className={primaryButtonClass}
              disabled={ship.isPending || tracking.trim().length < 13}
              onClick={() =>
                ship.mutate({ id: request.id, body: { codigo_rastreio: tracking, versao: request.versao } })
              }
            >
              Enviar troca
            </button>
          </>
        ) : null}
        {!received ? (
          <button
            type="button"
            className={primaryButtonClass}
            disabled={receive.isPending}
            onClick={() =>
              receive.mutate({
                id: request.id,
                body: {
                  itens: request.itens.map((i) => ({
                    item_id: i.item_id,
                    estoque: restock[i.item_id] ?? true,
                  })),
                  versao: request.versao,
                },
              })
            }
          >
            Confirmar recebimento
          </button>
        ) : null}
        {/* An exchange becomes a refund only once its units are back (docs/decisions/0040, later). */}
        {refundable ? (
          <>
            <label className="flex flex-col text-sm">
              {`Valor a reembolsar da solicitação ${request.id} (R$)`}
              <input
                inputMode="decimal"
                value={amount}
                onChange={(e) => setAmount(e.target.value)}
                className="w-32 rounded border border-stone-300 px-2 py-1 dark:border-stone-700 dark:bg-stone-900"
              />
            </label>
            <button
              type="button"
              className={primaryButtonClass}
              disabled={refund.isPending || !amountOk}
              onClick={() =>
                refund.mutate({ id: request.id, body: { valor: value, versao: request.versao } })
              }
            >
              Reembolsar
            </button>
          </>
        ) : null}
        <label className="flex flex-col text-sm">
          {`Motivo da recusa da solicitação ${request.id}`}
          <input
            value={why}
            onChange={(e) => setWhy(e.target.value)}
            className="rounded border border-stone-300 px-2 py-1 dark:border-stone-700 dark:bg-stone-900"
          />
        </label>
        <button
          type="button"
          className={secondaryButtonClass}
          disabled={refuse.isPending || why.trim().length < 3}
          onClick={() => refuse.mutate({ id: request.id, body: { motivo: why, versao: request.versao } })}
        >
          Recusar
        </button>
      </div>
    </article>
  );
}

/** /painel/devolucoes: the returns queue, oldest first (docs/decisions/0036). */
export default function ReturnsPage() {
  const returns = useReturns();
  return (
    <section>
      <h1 className="mb-4 text-2xl font-bold">Devoluções</h1>
      {returns.isPending ? <p role="status">Carregando…</p> : null}
      {returns.data?.length === 0 ? <p>Nenhuma solicitação em aberto.</p> : null}
      <div className="flex flex-col gap-4">
        {returns.data?.map((r) => (
          <ReturnCard key={r.id} request={r} />
        ))}
      </div>
    </section>
  );
}
