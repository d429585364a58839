import { reaisToCents } from '@passada/core/money';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { FormStatus, secondaryButtonClass } from '../../../components/form-field.tsx';
import { PixPanel } from '../../../components/payments/pix-panel.tsx';
import { formatReais } from '../../../components/price.tsx';
import { useSession } from '../../../lib/session.tsx';
import { ruleDifferenceQuery } from '../api/after-sale-api.ts';
import { SignInToPay } from './sign-in-to-pay.tsx';

/**
 * After staff refuse the proof of a special price: why, and the runner's two ways out side by side —
 * pay the difference to the lot's price by Pix and keep the place, or cancel with everything back
 * (the card's own "Cancelar inscrição"). Asks the price only for a registration flagged
 * `comprovante_recusado`; nothing shows while there is nothing to pay. `base` and `pays`
 * as for the change of distance: the account's registration or the participant's link.
 */
export function RunnerRuleDifference(props: {
  base: string;
  pays: { inscricao: number } | { link: string };
  /** The registration's `comprovante_recusado`: only a flagged one asks the price. */
  refused: boolean;
  onPaid: () => void;
}) {
  const { token } = useSession();
  // Mounted for every standing registration, so the message after paying outlives the flag it clears.
  const quote = useQuery({ ...ruleDifferenceQuery(props.base), enabled: props.refused });
  const [paying, setPaying] = useState(false);
  const [message, setMessage] = useState<{ text: string; tone: 'success' | 'error' } | null>(null);
  const q = quote.data;
  if (message?.tone === 'success') return <FormStatus message={message.text} tone="success" />;
  if (!props.refused || !q?.permitido) return null;
  const title = `Comprovante do preço especial${q.regra ? ` ${q.regra}` : ''} recusado`;
  return (
    <section aria-label={title} className="mt-4 rounded border border-amber-600 p-3">
      <h3 className="font-semibold">{title}</h3>
      {q.motivo_recusa ? <p className="mt-1 text-sm">Motivo: {q.motivo_recusa}</p> : null}
      <p className="mt-1 text-sm">
        Para manter a inscrição, pague a diferença até o preço do lote: {formatReais(q.a_pagar)}. Ou cancele a
        inscrição com devolução integral até a largada.
      </p>
      {!token ? (
        <SignInToPay />
      ) : paying ? (
        <div className="mt-2">
          <PixPanel
            finalidade="inscricao"
            draft={{ diferenca_preco: props.pays }}
            totalCents={reaisToCents(q.a_pagar)}
            descricao="Diferença do preço especial"
            onPaid={() => {
              setMessage({ text: 'Diferença paga: a inscrição continua válida.', tone: 'success' });
              props.onPaid();
            }}
            onError={(text) => setMessage({ text, tone: 'error' })}
          />
        </div>
      ) : (
        <button type="button" className={`${secondaryButtonClass} mt-2`} onClick={() => setPaying(true)}>
          Pagar a diferença de {formatReais(q.a_pagar)} com Pix
        </button>
      )}
      <FormStatus message={message?.tone === 'error' ? message.text : null} tone="error" />
    </section>
  );
}
