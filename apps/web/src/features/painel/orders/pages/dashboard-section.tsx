import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { linkClass } from '../../../../components/form-field.tsx';
import { formatReais } from '../../../../components/price.tsx';
import { errorMessage } from '../../shell/utils/error-message.ts';
import { useAwaitingShipment, useDashboard } from '../api/dashboard.ts';

const SalesChart = lazy(() => import('../components/sales-chart.tsx'));

const card = 'rounded-lg border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900';

const ATTENTION_LABEL: Record<string, string> = {
  refunded: 'Cartão estornado pela operadora',
  contested: 'Compra contestada no cartão',
  pago_sem_estoque: 'Pago sem estoque',
  pago_sem_vaga: 'Pago sem vaga',
  resultado_desconhecido: 'Resultado desconhecido',
  erro_na_operadora: 'Falha na operadora após receber o cartão',
  devolucao_nao_realizada: 'Devolução Pix não realizada',
  unpaid: 'Cartão não pago após aprovação',
  canceled: 'Cartão cancelado após aprovação',
};

/** What waits for shipping, for a role that ships orders but does not read the sales (estoque). */
export function AwaitingShipmentCard() {
  const awaiting = useAwaitingShipment();
  if (awaiting.isPending) return <p role="status">Carregando pedidos a enviar…</p>;
  if (awaiting.isError) return <p role="alert">{errorMessage(awaiting.error)}</p>;
  return (
    <section aria-label="Pedidos a enviar" className={`${card} max-w-xs`}>
      <p className="text-sm text-stone-600 dark:text-stone-400">Aguardando envio</p>
      <p className="text-3xl font-bold">{awaiting.data.aguardando_envio}</p>
      <Link to="/painel/pedidos?status=pago" className={`${linkClass} text-sm`}>
        Ver pedidos
      </Link>
    </section>
  );
}

/**
 * Sales, what waits for shipping, low stock, registrations and the payments staff must look at. Sales
 * are every paid charge less what of it went back, on the day it was paid: the shop's (orders and
 * exchanges' differences) and the registrations' (with transfers' and changes' charges); the 30 days'
 * net is the two summed.
 */
export function DashboardSection() {
  const dash = useDashboard();
  if (dash.isPending) return <p role="status">Carregando resumo…</p>;
  if (dash.isError) return <p role="alert">{errorMessage(dash.error)}</p>;
  const d = dash.data;
  const periods = [
    ['Hoje', d.vendas.hoje],
    ['7 dias', d.vendas.dias_7],
    ['30 dias', d.vendas.dias_30],
  ] as const;
  return (
    <div className="flex flex-col gap-4">
      {d.webhook_pix === 'erro' ? (
        <p role="alert" className="rounded border border-red-300 bg-red-50 p-3 text-red-800">
          O webhook Pix não está registrado na Efí: confirmações de pagamento podem atrasar.
        </p>
      ) : null}
      <ul className="grid gap-4 md:grid-cols-4" aria-label="Vendas">
        {periods.map(([label, v]) => (
          <li key={label} className={card}>
            <p className="text-sm text-stone-600 dark:text-stone-400">Vendas – {label}</p>
            <p className="font-bold">Loja: {formatReais(v.loja)}</p>
            <p className="font-bold">Inscrições: {formatReais(v.inscricoes)}</p>
          </li>
        ))}
        <li className={card}>
          <p className="text-sm text-stone-600 dark:text-stone-400">Aguardando envio</p>
          <p className="text-3xl font-bold">{d.aguardando_envio}</p>
          <Link to="/painel/pedidos?status=pago" className={`${linkClass} text-sm`}>
            Ver pedidos
          </Link>
        </li>
      </ul>
      <ul className="grid gap-4 md:grid-cols-3" aria-label="Últimos 30 dias">
        <li className={card}>
          <p className="text-sm text-stone-600 dark:text-stone-400">Vendas líquidas – 30 dias</p>
          <p className="text-2xl font-bold">{formatReais(d.pedidos_30_dias.liquido)}</p>
          <p className="text-xs text-stone-600 dark:text-stone-400">
            Loja e inscrições, com trocas, transferências e trocas de distância:{' '}
            {formatReais(d.pedidos_30_dias.bruto)} pagos, {formatReais(d.pedidos_30_dias.devolvido)}{' '}
            devolvidos
          </p>
        </li>
        <li className={card}>
          <p className="text-sm text-stone-600 dark:text-stone-400">Pedidos – 30 dias</p>
          <p className="text-2xl font-bold">{d.pedidos_30_dias.pedidos}</p>
        </li>
        <li className={card}>
          <p className="text-sm text-stone-600 dark:text-stone-400">Ticket médio – 30 dias</p>
          <p className="text-2xl font-bold">{formatReais(d.pedidos_30_dias.ticket_medio)}</p>
        </li>
      </ul>
      <div className={card}>
        <h2 className="mb-2 font-semibold">Vendas por dia</h2>
        <Suspense fallback={<p>Carregando gráfico…</p>}>
          <SalesChart days={d.vendas_por_dia} />
        </Suspense>
      </div>
      <div className="grid gap-4 md:grid-cols-3">
        <div className={card}>
          <h2 className="mb-2 font-semibold">Pagamentos que pedem atenção</h2>
          {d.atencao.length === 0 ? <p className="text-sm">Nada pendente.</p> : null}
          <ul className="text-sm">
            {d.atencao.map((a) => (
              <li key={a.txid}>
                {ATTENTION_LABEL[a.motivo] ?? a.motivo} · {a.metodo} · {formatReais(a.valor)}
                {a.pedido_id ? (
                  <>
                    {' · '}
                    <Link to={`/painel/pedidos/${a.pedido_id}`} className={linkClass}>
                      pedido {a.pedido_id}
                    </Link>
                  </>
                ) : null}
              </li>
            ))}
          </ul>
        </div>
        <div className={card}>
          <h2 className="mb-2 font-semibold">Estoque baixo</h2>
          <ul className="text-sm">
            {d.estoque_baixo.map((s) => (
              <li key={`${s.product_id}-${s.cor}-${s.tamanho}`}>
                {s.produto} ({s.cor}, {s.tamanho}): {s.quantidade}
              </li>
            ))}
          </ul>
        </div>
        <div className={card}>
          <h2 className="mb-2 font-semibold">Inscrições por evento</h2>
          <ul className="text-sm">
            {d.inscricoes_por_evento.map((e) => (
              <li key={e.evento_id}>
                {e.evento}: {e.inscritos}
                {e.gratuitas > 0 ? ` (${e.gratuitas} ${e.gratuitas === 1 ? 'gratuita' : 'gratuitas'})` : ''}
              </li>
            ))}
          </ul>
        </div>
      </div>
    </div>
  );
}
