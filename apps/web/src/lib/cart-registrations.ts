import { type CartRegistration, cartRegistrationsStore as store } from './cart-registrations-store.ts';

export { type CartRegistration, useCartRegistrations } from './cart-registrations-store.ts';

export const cartRegistrations = {
  getSnapshot: store.get,
  /**
   * Puts a participant in the cart. The same person for the same event is one line (the server refuses
   * them twice): the new categories join the ones already there, and a new choice for a race day
   * replaces the earlier one of that day (one category per day); the newest form data wins. Says which
   * it did, so the page can tell the buyer.
   */
  add(
    line: Omit<CartRegistration, 'key'>,
    dayOf: (categoryId: number) => string | undefined,
  ): 'added' | 'merged' {
    const same = (l: CartRegistration) =>
      l.participant.cpf === line.participant.cpf && l.participant.evento === line.participant.evento;
    const earlier = store.get().find(same);
    let next = line;
    if (earlier) {
      const newDays = new Set(line.participant.categoria_evento.map(dayOf));
      const kept = earlier.participant.categoria_evento
        .map((id, i) => ({ id, name: earlier.categorias[i] ?? '' }))
        .filter(({ id }) => !line.participant.categoria_evento.includes(id) && !newDays.has(dayOf(id)));
      next = {
        ...line,
        categorias: [...kept.map((k) => k.name), ...line.categorias],
        participant: {
          ...line.participant,
          categoria_evento: [...kept.map((k) => k.id), ...line.participant.categoria_evento],
        },
      };
    }
    store.set([
      ...store.get().filter((l) => !same(l)),
      { ...next, key: `${Date.now()}-${Math.random().toString(36).slice(2)}` },
    ]);
    return earlier ? 'merged' : 'added';
  },
  remove(key: string): void {
    store.set(store.get().filter((l) => l.key !== key));
  },
  clear(): void {
    store.set([]);
  },
};
