import { formatReais } from '../../../components/price.tsx';

/** What a quote of a change shows, for one change of distance and for a list of changes alike. */
export interface QuoteFigures {
  taxa: number;
  diferenca: number;
  a_pagar: number;
  a_devolver: number;
}

/** The fee, the price difference, and what is to pay or comes back, as the change's screens show them. */
export function ChangeQuoteFigures({ quote }: { quote: QuoteFigures }) {
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
      <dt className="font-medium">Taxa de troca</dt>
      <dd>{quote.taxa > 0 ? formatReais(quote.taxa) : 'sem taxa'}</dd>
      <dt className="font-medium">Diferença de preço</dt>
      <dd>{formatReais(quote.diferenca)}</dd>
      {quote.a_pagar > 0 ? (
        <>
          <dt className="font-medium">A pagar</dt>
          <dd>{formatReais(quote.a_pagar)}</dd>
        </>
      ) : (
        <>
          <dt className="font-medium">A devolver</dt>
          <dd>{quote.a_devolver > 0 ? formatReais(quote.a_devolver) : 'nada'}</dd>
        </>
      )}
    </dl>
  );
}
