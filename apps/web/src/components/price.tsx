import { formatBRL, reaisToCents } from '@passada/core/money';

/** A product price from the wire (reais) shown as "R$ 129,90". */
export function formatReais(reais: number): string {
  return formatBRL(reaisToCents(reais));
}

/**
 * A price; with `wasReais` (a sale, decision 0082) the list price before it, struck through: read out as
 * "De R$ 129,90 por R$ 99,90", since a screen reader does not say what a strike-through means.
 */
export function Price({
  reais,
  wasReais,
  className,
}: {
  reais: number;
  wasReais?: number | undefined;
  className?: string;
}) {
  if (wasReais === undefined) return <span className={className}>{formatReais(reais)}</span>;
  return (
    <span className={className}>
      <span className="sr-only">De </span>
      <s className="mr-2 text-base font-normal text-stone-600 dark:text-stone-400">{formatReais(wasReais)}</s>
      <span className="sr-only">por </span>
      {formatReais(reais)}
    </span>
  );
}
