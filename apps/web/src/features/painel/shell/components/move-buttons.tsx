/** "Subir", "Descer" and "Remover" for an item of an ordered list, each named after the item. */
export function MoveButtons(props: {
  name: string;
  index: number;
  count: number;
  removeLabel: string;
  onMove(from: number, to: number): void;
  onRemove(): void;
}) {
  const { name, index, count } = props;
  const button = 'rounded px-2 py-1 hover:bg-stone-200 disabled:opacity-30 dark:hover:bg-stone-800';
  return (
    <span className="flex gap-1">
      <button
        type="button"
        aria-label={`Subir ${name}`}
        disabled={index === 0}
        onClick={() => props.onMove(index, index - 1)}
        className={button}
      >
        ↑
      </button>
      <button
        type="button"
        aria-label={`Descer ${name}`}
        disabled={index === count - 1}
        onClick={() => props.onMove(index, index + 1)}
        className={button}
      >
        ↓
      </button>
      <button
        type="button"
        aria-label={`${props.removeLabel} ${name}`}
        onClick={props.onRemove}
        className={`${button} text-red-700 dark:text-red-400`}
      >
        ✕
      </button>
    </span>
  );
}

/** The list with the item at `from` moved to `to`. */
export function moved<T>(list: readonly T[], from: number, to: number): T[] {
  if (to < 0 || to >= list.length || from === to) return [...list];
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item!);
  return next;
}
