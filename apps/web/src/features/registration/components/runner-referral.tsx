import type { ReferralStatus } from '@passada/core/contracts/registrations';
import { CopyLink } from '../../../components/copy-link.tsx';
import { formatReais } from '../../../components/price.tsx';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * A paid runner's referral link (docs/decisions/0086) and where it stands: how many registrations paid
 * through it count, how many still wait for their 7 days, and what came back once the event's minimum
 * was reached.
 */
export function RunnerReferral({
  registrationId,
  referral,
}: {
  registrationId: number;
  referral: ReferralStatus;
}) {
  const { minimo, percentual, confirmadas, aguardando, devolvido } = referral;
  return (
    <section aria-label={`Indicação da inscrição nº ${registrationId}`} className="mt-4 text-sm">
      <h3 className="font-semibold">Indique e ganhe {percentual}% de volta</h3>
      {devolvido === null ? (
        <>
          <p>
            Depois de {plural(minimo, 'inscrição paga', 'inscrições pagas')} de outras pessoas pelo seu link,{' '}
            {percentual}% do que você pagou volta para você. Cada uma conta 7 dias depois do pagamento, se não
            for cancelada.
          </p>
          <p>
            {plural(confirmadas, 'confirmada', 'confirmadas')} de {minimo}
            {aguardando > 0 ? ` · ${aguardando} aguardando os 7 dias` : ''}
          </p>
          <CopyLink link={referral.link} label="Copiar link de indicação" />
        </>
      ) : (
        <p>
          Suas indicações chegaram a {minimo}: {formatReais(devolvido)} devolvidos na forma de pagamento da
          inscrição.
        </p>
      )}
    </section>
  );
}
