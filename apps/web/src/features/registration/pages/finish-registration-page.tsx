import { zodResolver } from '@hookform/resolvers/zod';
import type { Address } from '@passada/core/contracts/accounts';
import { isRealIsoDate, type Participant, ParticipantSchema } from '@passada/core/contracts/registrations';
import { formatIsoDateBR, type RegistrationStart, registrationStartFromSearch } from '@passada/core/events';
import { formatBRL } from '@passada/core/money';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { type Resolver, useForm } from 'react-hook-form';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { useAlert } from '../../../components/dialog.tsx';
import { primaryButtonClass, secondaryButtonClass } from '../../../components/form-field.tsx';
import { CardForm } from '../../../components/payments/card-form.tsx';
import { ProcessingModal, SuccessModal } from '../../../components/payments/payment-modals.tsx';
import { PixPanel } from '../../../components/payments/pix-panel.tsx';
import { RequireAuth } from '../../../components/require-auth.tsx';
import { useAddresses } from '../../../lib/accounts-api.ts';
import { eventQuery } from '../../../lib/events-api.ts';
import { useSession } from '../../../lib/session.tsx';
import { priceQuery, registerParticipant } from '../api/registrations-api.ts';
import { ParticipantFields, type ParticipantFormValues } from '../components/participant-form.tsx';

const PIX_NEEDS = 'DIGITE O SEU CPF, DATA DE NASCIMENTE E SELECIONE O SEU GÊNERO ANTES DE CONTINUAR!';
/** docs/product.md §4: after the success modal, the lookup page. */
const REDIRECT_MS = 10_000;

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
  return (
    <RequireAuth>
      <FinishRegistration />
    </RequireAuth>
  );
}

function FinishRegistration() {
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

function primaryAddressValues(a: Address) {
  return {
    street: a.street,
    neighborhood: a.neighborhood,
    city: a.city,
    state: a.state,
    zip_code: a.zip_code,
    numero_contato: a.phone,
  };
}

function RegistrationCheckout({ start }: { start: RegistrationStart }) {
  const navigate = useNavigate();
  const { profile } = useSession();
  const [alertElement, showAlert] = useAlert();
  const eventQ = useQuery(eventQuery(String(start.eventoId)));
  const addresses = useAddresses();
  const [method, setMethod] = useState<'none' | 'pix' | 'cartao'>('none');
  const [draft, setDraft] = useState<Participant | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [success, setSuccess] = useState(false);
  const [successOpen, setSuccessOpen] = useState(false);
  const lookupPath = `/eventos/register/${start.eventoId}/ja-me-inscrevi`;

  const {
    register,
    handleSubmit,
    getValues,
    setValue,
    watch,
    formState: { errors },
  } = useForm<ParticipantFormValues, unknown, Participant>({
    // The form keeps gender as '' until chosen; the contract refuses that with its own message.
    resolver: zodResolver(ParticipantSchema) as unknown as Resolver<
      ParticipantFormValues,
      unknown,
      Participant
    >,
    defaultValues: {
      nome_completo: '',
      cpf: '',
      data_nascimento: '',
      genero: '',
      numero_contato: '',
      email: '',
      evento: start.eventoId,
      categoria_evento: start.categorias,
      street: '',
      zip_code: '',
      state: '',
      city: '',
      neighborhood: '',
    },
  });

  // For oneself: name and e-mail from the profile, address and phone from the primary address.
  const primary = addresses.data?.find((a) => a.is_primary) ?? null;
  const prefilledProfile = useRef(false);
  useEffect(() => {
    if (!start.paraMim || !profile || prefilledProfile.current) return;
    prefilledProfile.current = true;
    setValue('nome_completo', profile.full_name);
    setValue('email', profile.email);
  }, [start.paraMim, profile, setValue]);
  const prefilledAddress = useRef(false);
  useEffect(() => {
    if (!start.paraMim || prefilledAddress.current) return;
    if (addresses.isError) {
      prefilledAddress.current = true;
      showAlert('Erro ao carregar os dados do endereço do usuário.');
      return;
    }
    if (!addresses.data) return;
    prefilledAddress.current = true;
    if (!primary) {
      showAlert('Não há endereço principal encontrado.');
      return;
    }
    for (const [key, value] of Object.entries(primaryAddressValues(primary)))
      setValue(key as keyof ParticipantFormValues, value);
  }, [start.paraMim, addresses.isError, addresses.data, primary, setValue, showAlert]);

  const birthDate = watch('data_nascimento');
  const price = useQuery(
    priceQuery(start.eventoId, start.categorias, isRealIsoDate(birthDate) ? birthDate : null),
  );

  // docs/product.md §4: the success modal stays 10 s, then the lookup page.
  useEffect(() => {
    if (!success) return;
    const timer = setTimeout(() => navigate(lookupPath), REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [success, navigate, lookupPath]);

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

  const choosePix = () => {
    const v = getValues();
    if (!v.cpf.trim() || !v.data_nascimento || !v.genero) {
      showAlert(PIX_NEEDS);
      return;
    }
    void handleSubmit((data) => {
      setDraft(data);
      setMethod('pix');
    })();
  };
  const chooseCard = () =>
    void handleSubmit((data) => {
      setDraft(data);
      setMethod('cartao');
    })();

  const confirm = async (txid: string) => {
    if (!draft) return;
    setConfirming(true);
    try {
      await registerParticipant(txid, draft);
      setSuccess(true);
      setSuccessOpen(true);
    } catch {
      showAlert('Erro ao realizar cadastro.');
    } finally {
      setConfirming(false);
    }
  };

  const lockProfile = start.paraMim;
  const lockAddress = start.paraMim && primary !== null;
  const totalCents = price.data?.total_centavos ?? null;
  // The data being paid for cannot change; a Pix charge, once created, is the one to pay.
  const frozen = method !== 'none' || success;
  const locked = method === 'pix' || success;
  const produto = `Inscrição ${event.nome_evento}`;

  return (
    <main className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-2xl font-bold">Finalizar inscrição</h1>
      <p className="mt-1 text-stone-700 dark:text-stone-300">
        {event.nome_evento} — {start.paraMim ? 'inscrição para mim' : 'inscrição para outra pessoa'}
      </p>

      {!event.inscricoes_abertas ? (
        <p role="alert" className="mt-6 font-semibold text-red-700 dark:text-red-400">
          Inscrições encerradas
        </p>
      ) : null}

      <section
        aria-labelledby="categorias-titulo"
        className="mt-6 rounded-xl border border-stone-200 p-4 dark:border-stone-700"
      >
        <h2 id="categorias-titulo" className="text-lg font-semibold">
          Categorias escolhidas
        </h2>
        {price.isError ? (
          <p role="alert" className="mt-2 text-red-700 dark:text-red-400">
            Não foi possível calcular o preço destas categorias.
          </p>
        ) : null}
        {price.data ? (
          <>
            <ul className="mt-2 divide-y divide-stone-200 dark:divide-stone-700">
              {price.data.itens.map((item) => (
                <li key={item.id} className="flex justify-between gap-4 py-2">
                  <span>
                    {item.nome_categoria}{' '}
                    <span className="text-sm text-stone-600 dark:text-stone-400">
                      ({formatIsoDateBR(item.data)})
                    </span>
                  </span>
                  <span>
                    {item.preco !== item.preco_inscricao ? (
                      <s className="mr-2 text-sm text-stone-500">
                        {formatBRL(Math.round(item.preco_inscricao * 100))}
                      </s>
                    ) : null}
                    {formatBRL(Math.round(item.preco * 100))}
                  </span>
                </li>
              ))}
            </ul>
            {price.data.meia_entrada ? (
              <p className="mt-2 text-sm font-medium text-green-800 dark:text-green-400">
                Meia-entrada: 60 anos ou mais no dia do evento (Estatuto do Idoso).
              </p>
            ) : null}
            <p className="mt-3 flex justify-between text-lg font-bold">
              <span>Total</span>
              <span data-testid="registration-total">{formatBRL(price.data.total_centavos)}</span>
            </p>
          </>
        ) : price.isPending ? (
          <p role="status" className="mt-2">
            Calculando preço...
          </p>
        ) : null}
      </section>

      <form
        className="mt-6"
        noValidate
        onSubmit={(e) => e.preventDefault()}
        aria-labelledby="participante-titulo"
      >
        <h2 id="participante-titulo" className="mb-4 text-lg font-semibold">
          Dados do participante
        </h2>
        <fieldset disabled={frozen} className="contents">
          <ParticipantFields
            register={register}
            errors={errors}
            lockProfile={lockProfile}
            lockAddress={lockAddress}
          />
        </fieldset>
      </form>

      {event.inscricoes_abertas && totalCents !== null ? (
        <section aria-labelledby="pagamento-titulo" className="mt-8">
          <h2 id="pagamento-titulo" className="text-lg font-semibold">
            Pagamento
          </h2>
          <div className="mt-3 flex flex-wrap gap-3">
            <button
              type="button"
              className={method === 'pix' ? primaryButtonClass : secondaryButtonClass}
              aria-pressed={method === 'pix'}
              disabled={locked}
              onClick={choosePix}
            >
              Pix
            </button>
            <button
              type="button"
              className={method === 'cartao' ? primaryButtonClass : secondaryButtonClass}
              aria-pressed={method === 'cartao'}
              disabled={locked}
              onClick={chooseCard}
            >
              Cartão de crédito
            </button>
            {method === 'cartao' && !success ? (
              <button type="button" className={secondaryButtonClass} onClick={() => setMethod('none')}>
                Alterar dados
              </button>
            ) : null}
          </div>
          <div className="mt-6">
            {method === 'pix' && draft ? (
              <PixPanel
                finalidade="inscricao"
                draft={draft}
                totalCents={totalCents}
                descricao={produto}
                onPaid={({ txid }) => void confirm(txid)}
              />
            ) : null}
            {method === 'cartao' && draft ? (
              <CardForm
                finalidade="inscricao"
                draft={draft}
                totalCents={totalCents}
                produto={produto}
                payer={{ email: profile?.email ?? draft.email, phone: draft.numero_contato }}
                onPaid={({ chargeId }) => void confirm(chargeId)}
              />
            ) : null}
          </div>
        </section>
      ) : null}

      <ProcessingModal open={confirming} text="Confirmando inscrição..." />
      <SuccessModal
        open={successOpen}
        title="Cadastro Realizado com Sucesso!"
        onClose={() => setSuccessOpen(false)}
      >
        <p>Você receberá a confirmação por e-mail.</p>
      </SuccessModal>
      {alertElement}
    </main>
  );
}
