import type { Participant } from '@passada/core/contracts/registrations';
import { isRealIsoDate } from '@passada/core/contracts/registrations';
import { TEAM_CODE_LENGTH } from '@passada/core/contracts/teams';
import { isValidCpf } from '@passada/core/documents';
import { type RegistrationStart, registrationStartFromSearch } from '@passada/core/events';
import { reaisToCents } from '@passada/core/money';
import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { AfterSaleRules } from '../../../components/after-sale-rules.tsx';
import { choiceButtonClass } from '../../../components/button-classes.ts';
import { CouponField } from '../../../components/coupon-field.tsx';
import { useAlert } from '../../../components/dialog.tsx';
import { primaryButtonClass, secondaryButtonClass } from '../../../components/form-field.tsx';
import {
  type PaymentMethod,
  PaymentStep,
  usePaymentStep,
} from '../../../components/payments/payment-step.tsx';
import { TurnCountdown } from '../../../components/turn-countdown.tsx';
import { useCoupon } from '../../../lib/coupons-api.ts';
import { eventQuery, priceQuery } from '../../../lib/events-api.ts';
import { useSession } from '../../../lib/session.tsx';
import { normaliseTeamCode } from '../../../lib/teams-api.ts';
import { useRegisterParticipant } from '../api/registrations-api.ts';
import { ParticipantFields } from '../components/participant-form.tsx';
import { RaceFields } from '../components/race-fields.tsx';
import { RegistrationPrice } from '../components/registration-price.tsx';
import {
  type SpecialPrice,
  SpecialPriceField,
  totalWithSpecialPrice,
} from '../components/special-price-field.tsx';
import { WaveFields } from '../components/wave-fields.tsx';
import { useAddToCart } from '../hooks/use-add-to-cart.ts';
import { useParticipantForm } from '../hooks/use-participant-form.ts';

const PIX_NEEDS = 'DIGITE O SEU CPF, DATA DE NASCIMENTE E SELECIONE O SEU GÊNERO ANTES DE CONTINUAR!';
const PROOF_NEEDED =
  'Envie o comprovante do preço especial escolhido antes de pagar, ou escolha o preço normal.';

const linkClass =
  'font-semibold text-brand-800 underline hover:text-brand-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 dark:text-brand-100';

function isRegistrationStart(value: unknown): value is RegistrationStart {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.paraMim === 'boolean' &&
    typeof v.eventoId === 'number' &&
    Array.isArray(v.categorias) &&
    v.categorias.length > 0 &&
    v.categorias.every((c) => Number.isInteger(c) && (c as number) > 0)
  );
}

/** /eventos/register/{id}/finalizar (docs/product.md §2): the participant, the server's price, then payment. */
export default function FinishRegistrationPage() {
  const { id = '' } = useParams();
  const location = useLocation();
  const fromState: unknown = location.state;
  const start = isRegistrationStart(fromState) ? fromState : registrationStartFromSearch(location.search);
  const eventId = Number(id);

  if (!start || start.eventoId !== eventId) {
    return (
      <main className="mx-auto max-w-3xl px-4 py-10">
        <h1 className="text-2xl font-bold">Finalizar inscrição</h1>
        <p className="mt-4">
          Escolha as categorias na{' '}
          <Link to={`/eventos/register/${encodeURIComponent(id)}`} className={linkClass}>
            página do evento
          </Link>
          .
        </p>
      </main>
    );
  }
  return <RegistrationCheckout start={start} />;
}

function RegistrationCheckout({ start }: { start: RegistrationStart }) {
  const { profile } = useSession();
  const [alertElement, showAlert] = useAlert();
  const eventQ = useQuery(eventQuery(String(start.eventoId)));
  const [method, setMethod] = useState<PaymentMethod | null>(null);
  const [draft, setDraft] = useState<Participant | null>(null);
  // What is being confirmed, read when the confirmation answers (before the page re-renders with it).
  const draftRef = useRef<Participant | null>(null);
  const { form, hasPrimaryAddress, addressNote } = useParticipantForm(start, eventQ.data?.termo_versao);
  // The server's refusal of the Pix (an age out of the category, registrations not open yet): nothing
  // was charged, so the form opens again with what was typed, and the reason stays beside the buttons.
  const [refusal, setRefusal] = useState<string | null>(null);
  // A special price by audience and its proof (docs/decisions/0068), chosen below the price.
  const [special, setSpecial] = useState<SpecialPrice | null>(null);
  const {
    register,
    handleSubmit,
    getValues,
    watch,
    formState: { errors },
  } = form;
  const registerParticipant = useRegisterParticipant();
  const putInCart = useAddToCart(eventQ.data, start.categorias, showAlert);
  const step = usePaymentStep({
    fulfil: ({ id }) =>
      draftRef.current
        ? registerParticipant.mutateAsync({ txid: id, participant: draftRef.current })
        : Promise.reject(),
    texts: {
      finishing: 'Confirmando inscrição...',
      failure: 'Erro ao realizar cadastro.',
      successTitle: 'Cadastro Realizado com Sucesso!',
      successText: 'Você receberá a confirmação por e-mail.',
    },
    redirectTo: `/eventos/register/${start.eventoId}/ja-me-inscrevi`,
    leaveOnClose: false,
    showAlert,
  });

  const birthDate = watch('data_nascimento');
  // A whole team code prices the team's tier (docs/decisions/0074), as the charge will.
  const teamCode = normaliseTeamCode(watch('equipe_codigo') ?? '');
  const price = useQuery(
    priceQuery(
      start.eventoId,
      start.categorias,
      isRealIsoDate(birthDate) ? birthDate : null,
      undefined,
      teamCode.length === TEAM_CODE_LENGTH ? teamCode : undefined,
    ),
  );
  // The coupon is priced for the categories and, once typed, the birth date (60+) and the CPF (its limit).
  const cpf = (watch('cpf') ?? '').replace(/\D/g, '');
  const coupon = useCoupon('inscricao', {
    evento: start.eventoId,
    categoria_evento: start.categorias,
    ...(isRealIsoDate(birthDate) ? { data_nascimento: birthDate } : {}),
    ...(isValidCpf(cpf) ? { cpf } : {}),
  });

  const event = eventQ.data;
  if (eventQ.isPending) {
    return (
      <main className="mx-auto max-w-3xl px-4 py-10">
        <p role="status">Carregando evento...</p>
      </main>
    );
  }
  if (!event) {
    return (
      <main className="mx-auto max-w-3xl px-4 py-10">
        <h1 className="text-2xl font-bold">Evento não encontrado.</h1>
      </main>
    );
  }

  // A waitlist offer's link (docs/decisions/0042-waitlist.md): the place held for this runner.
  const offer = new URLSearchParams(location.search).get('oferta');
  // A special price does not add to a coupon (the server refuses both): with one, the coupon stays out.
  const withCoupon = (data: Participant): Participant => ({
    ...data,
    ...(special
      ? {
          regra_preco: special.rule.id,
          ...(special.proof ? { comprovante: special.proof } : {}),
          ...(special.consent ? { comprovante_consentimento: true } : {}),
        }
      : coupon.applied
        ? { cupom: coupon.applied.cupom }
        : {}),
    ...(offer ? { oferta_espera: offer } : {}),
  });
  const proofMissing = special?.rule.exige_comprovante === true && special.proof === null;
  const choose = (next: PaymentMethod) => {
    if (proofMissing) {
      showAlert(PROOF_NEEDED);
      return;
    }
    void handleSubmit((data) => {
      draftRef.current = withCoupon(data);
      setRefusal(null);
      setDraft(draftRef.current);
      setMethod(next);
    })();
  };
  const refused = (message: string) => {
    setMethod(null);
    setRefusal(message);
  };
  // Nothing to pay (docs/decisions/0028): the server confirms it at once, no payment step.
  const confirmFree = () =>
    void handleSubmit(async (data) => {
      draftRef.current = withCoupon(data);
      setDraft(draftRef.current);
      await step.confirmWithoutPayment('inscricao', draftRef.current);
    })();
  // A special price goes to the cart with its proof already sent (the server checks both when paid).
  const addToCart = () => {
    if (proofMissing) {
      showAlert(PROOF_NEEDED);
      return;
    }
    void handleSubmit((data) =>
      special
        ? putInCart(withCoupon(data), false, special.rule.nome)
        : putInCart(data, coupon.applied !== null),
    )();
  };
  const choosePix = () => {
    const v = getValues();
    if (!v.cpf.trim() || !v.data_nascimento || !v.genero) {
      showAlert(PIX_NEEDS);
      return;
    }
    choose('pix');
  };

  const totalCents = special
    ? price.data
      ? totalWithSpecialPrice(price.data, special)
      : null
    : coupon.applied
      ? reaisToCents(coupon.applied.total)
      : (price.data?.total_centavos ?? null);
  // The data being paid for cannot change; a Pix charge, once created, is the one to pay.
  const frozen = method !== null || step.locked || step.succeeded;
  const locked = method === 'pix' || step.succeeded;
  // Before a choice both methods are the way forward; once chosen, the chosen one is marked.
  const methodClass = (m: 'pix' | 'cartao') =>
    method === m ? primaryButtonClass : method === null ? choiceButtonClass : secondaryButtonClass;
  const free = totalCents === 0;

  return (
    <main className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-2xl font-bold">Finalizar inscrição</h1>
      <p className="mt-1 text-stone-700 dark:text-stone-300">
        {event.nome_evento} — {start.paraMim ? 'inscrição para mim' : 'inscrição para outra pessoa'}
      </p>
      <TurnCountdown eventId={event.id} />

      {!event.inscricoes_abertas ? (
        <p role="alert" className="mt-6 font-semibold text-red-700 dark:text-red-400">
          Inscrições encerradas
        </p>
      ) : null}

      <RegistrationPrice
        price={price}
        coupon={coupon.applied}
        special={special && totalCents !== null ? { name: special.rule.nome, totalCents } : null}
      />
      <SpecialPriceField
        eventId={start.eventoId}
        categories={start.categorias}
        value={special}
        onChange={setSpecial}
        disabled={method !== null || step.locked || step.succeeded}
      />

      <form
        className="mt-6"
        noValidate
        onSubmit={(e) => e.preventDefault()}
        aria-labelledby="participante-titulo"
      >
        <h2 id="participante-titulo" className="mb-4 text-lg font-semibold">
          Dados do participante
        </h2>
        {addressNote ? (
          <p
            role="status"
            className="mb-4 rounded-lg bg-amber-50 p-3 text-sm text-amber-950 dark:bg-amber-950 dark:text-amber-50"
          >
            {addressNote} Preencha o endereço abaixo ou{' '}
            <Link to="/enderecos" className={linkClass}>
              cadastre um endereço principal
            </Link>{' '}
            para as próximas inscrições.
          </p>
        ) : null}
        <fieldset disabled={frozen} className="contents">
          <ParticipantFields
            register={register}
            errors={errors}
            lockProfile={start.paraMim}
            lockAddress={start.paraMim && hasPrimaryAddress}
          />
          <WaveFields event={event} categories={start.categorias} register={register} errors={errors} />
          <RaceFields event={event} register={register} errors={errors} control={form.control} />
        </fieldset>
      </form>

      {event.inscricoes_abertas ? (
        <section aria-label="Cupom de desconto" className="mt-6 max-w-md">
          <CouponField coupon={coupon} disabled={frozen} />
        </section>
      ) : null}

      {event.inscricoes_abertas && free ? (
        <section aria-labelledby="confirmacao-titulo" className="mt-8">
          <h2 id="confirmacao-titulo" className="text-lg font-semibold">
            Confirmação
          </h2>
          <p className="mt-2">Inscrição gratuita: não há nada a pagar.</p>
          <div className="mt-3 flex flex-wrap gap-3">
            <button type="button" className={primaryButtonClass} disabled={frozen} onClick={confirmFree}>
              Confirmar inscrição
            </button>
            <button type="button" className={secondaryButtonClass} disabled={frozen} onClick={addToCart}>
              Adicionar ao carrinho
            </button>
          </div>
          <PaymentStep
            step={step}
            method={null}
            purpose="inscricao"
            draft={draft}
            totalCents={0}
            description={`Inscrição ${event.nome_evento}`}
            payer={{ email: profile?.email ?? '', phone: '' }}
          />
        </section>
      ) : null}

      {event.inscricoes_abertas && totalCents !== null && !free ? (
        <section aria-labelledby="pagamento-titulo" className="mt-8">
          <h2 id="pagamento-titulo" className="text-lg font-semibold">
            Pagamento
          </h2>
          <p className="mt-1 text-sm text-stone-700 dark:text-stone-300">
            Escolha como pagar para concluir a inscrição.
          </p>
          <fieldset className="mt-3 flex flex-wrap gap-3">
            <legend className="sr-only">Forma de pagamento</legend>
            <button
              type="button"
              className={methodClass('pix')}
              aria-pressed={method === 'pix'}
              disabled={locked}
              onClick={choosePix}
            >
              Pix
            </button>
            <button
              type="button"
              className={methodClass('cartao')}
              aria-pressed={method === 'cartao'}
              disabled={locked}
              onClick={() => choose('cartao')}
            >
              Cartão de crédito
            </button>
            {method === 'cartao' && !step.succeeded ? (
              <button type="button" className={secondaryButtonClass} onClick={() => setMethod(null)}>
                Alterar dados
              </button>
            ) : null}
          </fieldset>
          {refusal ? (
            <p role="alert" className="mt-3 font-medium text-red-700 dark:text-red-400">
              {refusal}
            </p>
          ) : null}
          <p className="mt-4 text-sm text-stone-700 dark:text-stone-300">
            Vai inscrever mais alguém ou comprar roupas?{' '}
            <button
              type="button"
              className="font-semibold text-brand-700 underline underline-offset-2 disabled:opacity-60 dark:text-brand-500"
              disabled={frozen}
              onClick={addToCart}
            >
              Adicionar ao carrinho
            </button>{' '}
            e pague tudo de uma vez.
          </p>
          <div className="mt-6">
            <PaymentStep
              step={step}
              method={draft ? method : null}
              purpose="inscricao"
              draft={draft}
              totalCents={totalCents}
              description={`Inscrição ${event.nome_evento}`}
              payer={{ email: profile?.email ?? draft?.email ?? '', phone: draft?.numero_contato ?? '' }}
              onPixError={refused}
            />
          </div>
        </section>
      ) : null}
      <AfterSaleRules eventId={event.id} />
      {alertElement}
    </main>
  );
}
