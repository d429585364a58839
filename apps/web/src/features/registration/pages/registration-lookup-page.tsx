import type { RegistrationLookup } from '@passada/core/contracts/registrations';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { AfterSaleRules } from '../../../components/after-sale-rules.tsx';
import { useAlert } from '../../../components/dialog.tsx';
import { inputClass, primaryButtonClass } from '../../../components/form-field.tsx';
import { cpfMask, useMaskedRef } from '../../../components/masked-field.tsx';
import { AccountPayments } from '../../../components/payments/account-payments.tsx';
import { loginPathFor } from '../../../components/require-auth.tsx';
import { ApiRequestError } from '../../../lib/api.ts';
import { eventQuery } from '../../../lib/events-api.ts';
import { useSession } from '../../../lib/session.tsx';
import { registrationLookupQuery } from '../api/registrations-api.ts';
import { RegistrationCard } from '../components/registration-card.tsx';

// A registration is only shown to the account that made it, so a guest learns why before the login page.
const LOGIN_TO_LOOK_UP =
  'Entre na sua conta para buscar sua inscrição: só mostramos inscrições feitas pela própria conta.';

/** /eventos/register/{id}/ja-me-inscrevi (docs/product.md §2): a registration this account made, found by CPF. */
export default function RegistrationLookupPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const location = useLocation();
  const { token } = useSession();
  const queryClient = useQueryClient();
  const { data: event } = useQuery(eventQuery(id));
  const [alertElement, showAlert] = useAlert();
  const [cpf, setCpf] = useState('');
  const [result, setResult] = useState<RegistrationLookup | null>(null);
  const [notFound, setNotFound] = useState(false);
  const [searching, setSearching] = useState(false);
  const inputId = useId();
  const cpfRef = useMaskedRef(cpfMask);
  const cpfDigits = cpf.replace(/\D/g, '');

  const search = async (e: FormEvent) => {
    e.preventDefault();
    if (!cpf.trim()) {
      showAlert('Por favor, insira um CPF válido!');
      return;
    }
    if (!token) {
      showAlert(LOGIN_TO_LOOK_UP, () => navigate(loginPathFor(location)));
      return;
    }
    setSearching(true);
    setResult(null);
    setNotFound(false);
    try {
      setResult(await queryClient.fetchQuery(registrationLookupQuery(cpfDigits, Number(id))));
    } catch (err) {
      if (err instanceof ApiRequestError && err.status === 401) {
        showAlert(LOGIN_TO_LOOK_UP, () => navigate(loginPathFor(location)));
        return;
      }
      setNotFound(true);
      showAlert('Inscrição não encontrada!');
    } finally {
      setSearching(false);
    }
  };

  return (
    <main className="mx-auto max-w-3xl px-4 py-10">
      {event ? (
        <div className="flex flex-col items-center gap-4 text-center">
          <img
            src={event.imagem_evento}
            alt={`Cartaz do evento ${event.nome_evento}`}
            width={800}
            height={500}
            className="w-full max-w-xl rounded-xl bg-stone-100 object-cover dark:bg-stone-800"
          />
          <h1 className="text-2xl font-bold">{event.nome_evento}</h1>
        </div>
      ) : (
        <h1 className="text-2xl font-bold">Já me inscrevi</h1>
      )}

      <div className="mx-auto mt-8 max-w-md">
        <AccountPayments purpose="inscricao" />
      </div>

      <form onSubmit={search} noValidate className="mx-auto mt-8 flex max-w-md flex-col gap-3">
        <label htmlFor={inputId} className="text-sm font-medium">
          CPF do participante
        </label>
        <input
          id={inputId}
          className={inputClass}
          inputMode="numeric"
          ref={cpfRef}
          placeholder="000.000.000-00"
          // The mask rewrites the value in the input event itself: onInput sees every change (MaskedField).
          defaultValue=""
          onInput={(e) => {
            setCpf(e.currentTarget.value);
            setNotFound(false);
          }}
        />
        <button type="submit" className={primaryButtonClass} disabled={searching}>
          Buscar Inscrição
        </button>
        {notFound && cpfDigits.length === 11 ? (
          <p role="alert" className="font-medium text-red-700 dark:text-red-400">
            Inscrição não encontrada para o CPF fornecido.
          </p>
        ) : null}
      </form>

      {result ? (
        <div className="mx-auto mt-8 max-w-md">
          <RegistrationCard
            registration={result}
            title="Inscrição encontrada"
            onChanged={() =>
              void queryClient.fetchQuery(registrationLookupQuery(cpfDigits, Number(id))).then(setResult)
            }
          />
        </div>
      ) : null}
      {event ? <AfterSaleRules eventId={event.id} /> : null}
      {alertElement}
    </main>
  );
}
