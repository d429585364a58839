import { formatBRL, reaisToCents } from '@passada/core/money';

/** A product price from the wire (reais) shown as "R$ 129,90". */
export function formatReais(reais: number): string {
  return formatBRL(reaisToCents(reais));
}

export function Price({ reais, className }: { reais: number; className?: string }) {
  return <span className={className}>{formatReais(reais)}</span>;
}
