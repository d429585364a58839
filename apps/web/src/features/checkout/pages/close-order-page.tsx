import { useEffect } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { useAlert } from '../../../components/dialog.tsx';
import { loginPathFor } from '../../../components/require-auth.tsx';
import { cart } from '../../../lib/cart.ts';
import { cartRegistrations } from '../../../lib/cart-registrations.ts';
import { useSession } from '../../../lib/session.tsx';

/**
 * /fechar-pedido: the login guard (spec §6) and the redirect to /enderecos (spec §2), or to the review
 * when the cart holds only event registrations.
 */
export default function Page() {
  const { token } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const [alertElement, showAlert] = useAlert();

  useEffect(() => {
    if (!token)
      showAlert('Você precisa estar logado para fazer uma compra.', () => navigate(loginPathFor(location)));
  }, [token, showAlert, navigate, location]);

  // Registrations alone ship nothing: straight to the review, no address asked.
  if (token)
    return (
      <Navigate
        to={
          cart.getSnapshot().length === 0 && cartRegistrations.getSnapshot().length > 0
            ? '/revisar-pedido'
            : '/enderecos'
        }
        replace
      />
    );
  return (
    <main className="mx-auto max-w-6xl px-4 py-10">
      <h1 className="text-2xl font-bold">Fechar pedido</h1>
      {alertElement}
    </main>
  );
}
