import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { primaryButtonClass, secondaryButtonClass } from '../form-field.tsx';
import { CardForm, type CardPhase, type InstallmentChoice } from './card-form.tsx';
import { ProcessingModal, SuccessModal } from './payment-modals.tsx';
import { type Purpose, useConfirmFree } from './payments-api.ts';
import { PixPanel } from './pix-panel.tsx';

/** docs/product.md §4: after a paid order or registration, the confirmation stays 10 s, then the next page. */
export const SUCCESS_REDIRECT_MS = 10_000;

export type PaymentMethod = 'pix' | 'cartao';

/**
 * A paid charge: the Pix txid or the card charge id, and the card's total with interest in reais;
 * `gratuito`: confirmed with nothing to pay (its txid).
 */
export interface Payment {
  method: PaymentMethod | 'gratuito';
  id: string;
  precoJuros: number | null;
}

export interface PaymentStepOptions {
  /** Records what was paid for (the order, the registration); its failure is shown with `texts.failure`. */
  fulfil(payment: Payment): Promise<unknown>;
  texts: { finishing: string; failure: string; successTitle: string; successText: string };
  /** Where the buyer goes once done. */
  redirectTo: string;
  /** Closing the confirmation leaves at once; otherwise it only closes and the 10 s still run. */
  leaveOnClose: boolean;
  /** Clears what the purchase used up (e.g. the cart); runs once, also when the buyer leaves early. */
  onLeave?(): void;
  showAlert(message: string): void;
}

export type PaymentStepState = ReturnType<typeof usePaymentStep>;

/** The state of "pay → processing → success → next page", kept by the page so it can lock its form. */
export function usePaymentStep(options: PaymentStepOptions) {
  const navigate = useNavigate();
  const [cardPhase, setCardPhase] = useState<CardPhase>('idle');
  const [confirming, setConfirming] = useState(false);
  const paying = cardPhase !== 'idle' || confirming;
  const confirmFree = useConfirmFree();
  const [finishing, setFinishing] = useState(false);
  const [succeeded, setSucceeded] = useState(false);
  const [successOpen, setSuccessOpen] = useState(false);
  const latest = useRef(options);
  latest.current = options;
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const pendingLeave = useRef(false);

  const clearUp = useCallback(() => {
    if (!pendingLeave.current) return;
    pendingLeave.current = false;
    latest.current.onLeave?.();
  }, []);
  const leave = useCallback(() => {
    clearTimeout(timer.current);
    clearUp();
    navigate(latest.current.redirectTo);
  }, [navigate, clearUp]);
  // Leaving during the 10 s still clears up: what was bought is gone from the cart.
  useEffect(
    () => () => {
      clearTimeout(timer.current);
      clearUp();
    },
    [clearUp],
  );

  const paid = async (payment: Payment) => {
    setFinishing(true);
    try {
      await latest.current.fulfil(payment);
      pendingLeave.current = true;
      setSucceeded(true);
      setSuccessOpen(true);
      timer.current = setTimeout(leave, SUCCESS_REDIRECT_MS);
    } catch {
      latest.current.showAlert(latest.current.texts.failure);
    } finally {
      setFinishing(false);
    }
  };

  /** Nothing to pay: the server confirms the draft at once, then the same success as a payment. */
  const confirmWithoutPayment = async (purpose: Purpose, draft: unknown) => {
    setConfirming(true);
    let txid: string;
    try {
      txid = (await confirmFree.mutateAsync({ purpose, draft })).txid;
    } catch (err) {
      latest.current.showAlert(err instanceof Error ? err.message : latest.current.texts.failure);
      return;
    } finally {
      setConfirming(false);
    }
    await paid({ method: 'gratuito', id: txid, precoJuros: null });
  };

  const closeSuccess = () => {
    if (latest.current.leaveOnClose) leave();
    else setSuccessOpen(false);
  };

  return {
    paying,
    /** A card payment is under way (not a confirmation without payment). */
    cardPaying: cardPhase !== 'idle',
    /** The bank is still reviewing the card payment; its status is being read. */
    reviewing: cardPhase === 'review',
    finishing,
    succeeded,
    /** Nothing that the charge covers may change now. */
    locked: paying || finishing || succeeded,
    successOpen,
    texts: options.texts,
    setCardPhase,
    paid,
    confirmWithoutPayment,
    closeSuccess,
    /** Leaves a payment under review for later: the account's pages show how it ends. */
    leaveForLater: () => navigate(latest.current.redirectTo),
  };
}

export interface PaymentStepProps {
  step: PaymentStepState;
  method: PaymentMethod | null;
  purpose: Purpose;
  /** What the server prices and charges for; it re-checks the total itself. */
  draft: unknown;
  /** The total the page shows, before card interest. */
  totalCents: number;
  /** The Pix description and the card's product line. */
  description: string;
  payer: { email: string; phone?: string };
  /** Headings for the Pix and card sections, when the page shows them. */
  headings?: Record<PaymentMethod, string>;
  onPixError?(message: string): void;
  onInstallmentChange?(option: InstallmentChoice | null): void;
}

/**
 * "Pix" and "Cartão de crédito" as two buttons, the chosen one pressed: a page that checks its form
 * first chooses through `onChoose`, then shows the PaymentStep with that method.
 */
export function PaymentMethodButtons({
  method,
  locked,
  onChoose,
}: {
  method: PaymentMethod | null;
  locked: boolean;
  onChoose(method: PaymentMethod): void;
}) {
  return (
    <div className="mt-3 flex flex-wrap gap-3">
      {(
        [
          ['pix', 'Pix'],
          ['cartao', 'Cartão de crédito'],
        ] as const
      ).map(([value, text]) => (
        <button
          key={value}
          type="button"
          className={method === value ? primaryButtonClass : secondaryButtonClass}
          aria-pressed={method === value}
          disabled={locked}
          onClick={() => onChoose(value)}
        >
          {text}
        </button>
      ))}
    </div>
  );
}

const laterButtonClass =
  'mt-4 rounded-lg border border-stone-300 px-4 py-2 font-medium hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-brand-700 dark:border-stone-700 dark:hover:bg-stone-800';

const sectionClass = 'rounded-xl border border-stone-200 p-5 dark:border-stone-800';

function Section({ title, children }: { title: string | undefined; children: ReactNode }) {
  if (!title) return children;
  return (
    <section className={sectionClass} aria-label={title}>
      <h2 className="mb-3 text-lg font-bold">{title}</h2>
      {children}
    </section>
  );
}

/** The chosen way to pay, then the processing and success modals; the page decides when to show it. */
export function PaymentStep({
  step,
  method,
  purpose,
  draft,
  totalCents,
  description,
  payer,
  headings,
  onPixError,
  onInstallmentChange,
}: PaymentStepProps) {
  return (
    <>
      {method === 'pix' ? (
        <Section title={headings?.pix}>
          <PixPanel
            finalidade={purpose}
            draft={draft}
            totalCents={totalCents}
            descricao={description}
            onPaid={({ txid }) => void step.paid({ method: 'pix', id: txid, precoJuros: null })}
            {...(onPixError ? { onError: onPixError } : {})}
          />
        </Section>
      ) : null}
      {method === 'cartao' ? (
        <Section title={headings?.cartao}>
          <CardForm
            finalidade={purpose}
            draft={draft}
            totalCents={totalCents}
            produto={description}
            payer={payer}
            onPhaseChange={step.setCardPhase}
            onPaid={(r) => void step.paid({ method: 'cartao', id: r.chargeId, precoJuros: r.precoJuros })}
            {...(onInstallmentChange ? { onInstallmentChange } : {})}
          />
        </Section>
      ) : null}
      <ProcessingModal
        open={step.paying || step.finishing}
        text={
          step.finishing || !step.cardPaying
            ? step.texts.finishing
            : step.reviewing
              ? 'Pagamento em análise'
              : 'Processando pagamento...'
        }
      >
        {step.reviewing && !step.finishing ? (
          <>
            <p>
              O banco emissor do cartão está confirmando o pagamento. Esta janela se atualiza sozinha assim
              que ele responder; os itens continuam reservados para você.
            </p>
            <button type="button" className={laterButtonClass} onClick={step.leaveForLater}>
              Acompanhar depois
            </button>
          </>
        ) : null}
      </ProcessingModal>
      <SuccessModal open={step.successOpen} title={step.texts.successTitle} onClose={step.closeSuccess}>
        <p>{step.texts.successText}</p>
      </SuccessModal>
    </>
  );
}
