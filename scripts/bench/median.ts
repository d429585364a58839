/** The middle item of `items` by `value` (the upper one of an even count), or undefined when empty. */
export function middleOf<T>(items: readonly T[], value: (item: T) => number): T | undefined {
  return [...items].sort((a, b) => value(a) - value(b))[Math.floor(items.length / 2)];
}
