import type { OrderRegistration } from '@passada/core/contracts/orders';

/**
 * The question before an order is cancelled and its payment returned: it names each registration the
 * order paid that goes with it (number, runner, event), so staff know whose race place they give back.
 */
export function cancelQuestion(registrations: readonly OrderRegistration[]): string {
  const live = registrations.filter((r) => !r.cancelada);
  if (!live.length) return 'Cancelar o pedido e devolver o pagamento ao cliente?';
  const names = live.map((r) => `nº ${r.id} de ${r.nome_completo} (${r.nome_evento})`);
  const list = names.length === 1 ? `a inscrição ${names[0]}` : `as inscrições ${names.join(', ')}`;
  return `Cancelar o pedido e ${list}, e devolver o pagamento ao cliente?`;
}
