/** A special price as the desk says it (docs/decisions/0068): its name and the document, never the document's content. */
export function SpecialPriceNote({
  special,
}: {
  special: { regra: string; documento: 'conferido' | 'conferir' | 'nao_pedido' };
}) {
  return (
    <p
      className={
        special.documento === 'conferir'
          ? 'mt-3 rounded bg-amber-100 p-2 font-semibold text-amber-900 dark:bg-amber-950 dark:text-amber-100'
          : 'mt-3 text-sm'
      }
    >
      Preço especial: {special.regra} —{' '}
      {special.documento === 'conferido'
        ? 'documento conferido'
        : special.documento === 'conferir'
          ? 'conferir documento'
          : 'sem documento pedido'}
      .
    </p>
  );
}
