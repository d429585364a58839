import type { Event } from '@passada/core/contracts/events';
import type { Participant } from '@passada/core/contracts/registrations';
import { useNavigate } from 'react-router';
import { cartRegistrations } from '../../../lib/cart-registrations.ts';

const CART_RACE_COUPON =
  'Cupons de corrida valem na inscrição direta; no carrinho, use um cupom da loja. Remova o cupom para adicionar ao carrinho.';

/**
 * "Adicionar ao carrinho": the participant, checked by the same schema as paying now, waits in the cart
 * to be paid with products and other participants (docs/decisions/0020). Race coupons stay on paying now.
 */
export function useAddToCart(
  event: Event | undefined,
  categoryIds: readonly number[],
  showAlert: (message: string, onClose?: () => void) => void,
) {
  const navigate = useNavigate();
  return (participant: Participant, withCoupon: boolean) => {
    if (!event) return;
    if (withCoupon) {
      showAlert(CART_RACE_COUPON);
      return;
    }
    cartRegistrations.add({
      nome_evento: event.nome_evento,
      categorias: event.dias_evento
        .flatMap((d) => d.categorias)
        .filter((c) => categoryIds.includes(c.id))
        .map((c) => c.nome_categoria),
      tamanho: event.kit.tamanhos.find((s) => s.id === participant.tamanho_camisa)?.tamanho ?? null,
      participant,
    });
    showAlert(
      `Inscrição de ${participant.nome_completo} adicionada ao carrinho. Inscreva outra pessoa ou abra o carrinho para pagar tudo de uma vez.`,
      () => navigate(`/eventos/register/${event.id}`),
    );
  };
}
