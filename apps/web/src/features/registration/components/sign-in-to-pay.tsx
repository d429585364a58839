import { Link, useLocation } from 'react-router';
import { formatReais } from '../../../components/price.tsx';
import { loginPathFor } from '../../../components/require-auth.tsx';

/**
 * What a participant's link says when something is to be paid by Pix and nobody is signed in: sign in
 * (or sign up) and come back; the registration stays theirs.
 */
export function SignInToPay({ amount }: { amount?: number }) {
  const location = useLocation();
  return (
    <p className="mt-2 text-sm">
      Para pagar{amount === undefined ? '' : ` ${formatReais(amount)}`} com Pix,{' '}
      <Link className="underline" to={loginPathFor(location)}>
        entre na sua conta
      </Link>{' '}
      (ou crie uma) e volte a este link: a inscrição continua sua.
    </p>
  );
}
