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
  return (participant: Participant, withCoupon: boolean, specialName?: string) => {
    if (!event) return;
    if (withCoupon) {
      showAlert(CART_RACE_COUPON);
      return;
    }
    const categories = event.dias_evento.flatMap((d) => d.categorias.map((c) => ({ ...c, day: d.data })));
    const outcome = cartRegistrations.add(
      {
        nome_evento: event.nome_evento,
        categorias: categories.filter((c) => categoryIds.includes(c.id)).map((c) => c.nome_categoria),
        tamanho: event.kit.tamanhos.find((s) => s.id === participant.tamanho_camisa)?.tamanho ?? null,
        participant,
        ...(specialName ? { preco_especial: specialName } : {}),
      },
      (id) => categories.find((c) => c.id === id)?.day,
    );
    const inCart = cartRegistrations
      .getSnapshot()
      .find((l) => l.participant.cpf === participant.cpf && l.participant.evento === event.id);
    showAlert(
      outcome === 'merged'
        ? `${participant.nome_completo} já estava no carrinho para este evento: a inscrição agora tem ${inCart?.categorias.join(', ')}. Uma categoria por dia: a escolha nova substitui a do mesmo dia.`
        : `Inscrição de ${participant.nome_completo} adicionada ao carrinho. Inscreva outra pessoa ou abra o carrinho para pagar tudo de uma vez.`,
      () => navigate(`/eventos/register/${event.id}`),
    );
  };
}
