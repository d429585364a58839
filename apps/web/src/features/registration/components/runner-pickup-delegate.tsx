import type { PickupDelegateRequest } from '@passada/core/contracts/after-sale';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { FormField, FormStatus, secondaryButtonClass } from '../../../components/form-field.tsx';
import { ApiRequestError } from '../../../lib/api.ts';
import { pickupDelegateQuery, useSavePickupDelegate, useSaveTeamPickup } from '../api/pickup-delegate-api.ts';

const errorText = (err: unknown) =>
  err instanceof ApiRequestError
    ? (err.body?.detail ?? err.message)
    : 'Não foi possível salvar. Tente de novo.';

/**
 * "Quem pode retirar o kit" (docs/decisions/0063, later): the runner names one person (name and CPF)
 * whom the desk hands the kit to against that CPF's document, or revokes them. `base` is the
 * registration's API path: the account's (`/api/inscricoes/{id}`) or the participant link's.
 */
export function RunnerPickupDelegate({ base }: { base: string }) {
  const status = useQuery(pickupDelegateQuery(base));
  const [person, setPerson] = useState<PickupDelegateRequest>({ nome_completo: '', cpf: '' });
  const [message, setMessage] = useState<{ text: string; tone: 'success' | 'error' } | null>(null);
  const save = useSavePickupDelegate(base);
  const team = useSaveTeamPickup(base);
  const sendTeam = async (allowed: boolean) => {
    setMessage(null);
    try {
      await team.mutateAsync(allowed);
      setMessage({
        text: allowed
          ? 'Quem a equipe enviar pode retirar o seu kit.'
          : 'Retirada pela equipe desfeita: o kit sai só para você ou a pessoa autorizada.',
        tone: 'success',
      });
    } catch (err) {
      setMessage({ text: errorText(err), tone: 'error' });
    }
  };
  const send = async (body: PickupDelegateRequest | null, done: string) => {
    setMessage(null);
    try {
      await save.mutateAsync(body);
      setPerson({ nome_completo: '', cpf: '' });
      setMessage({ text: done, tone: 'success' });
    } catch (err) {
      setMessage({ text: errorText(err), tone: 'error' });
    }
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void send(person, 'Retirada autorizada.');
  };
  const s = status.data;
  if (!s) return null;
  return (
    // A part of the registration's card, not a landmark of its own: a page with several registrations
    // would hold several regions of one name (axe's landmark-unique).
    <div className="mt-6">
      <h2 className="text-lg font-semibold">Quem pode retirar o kit</h2>
      {s.autorizado ? (
        <div className="mt-2">
          <p>
            Retirada autorizada para {s.autorizado.nome}, CPF {s.autorizado.cpf}. Na retirada, essa pessoa
            mostra um documento com foto desse CPF.
          </p>
          <button
            type="button"
            className={`${secondaryButtonClass} mt-2`}
            disabled={save.isPending}
            onClick={() => void send(null, 'Autorização revogada: só você retira o kit.')}
          >
            Revogar autorização
          </button>
        </div>
      ) : null}
      {s.permitido ? (
        <form onSubmit={submit} className="mt-2 grid gap-2" noValidate>
          <FormField
            label="Nome completo de quem vai retirar"
            autoComplete="off"
            maxLength={150}
            value={person.nome_completo}
            onChange={(e) => setPerson({ ...person, nome_completo: e.target.value })}
          />
          <FormField
            label="CPF de quem vai retirar"
            inputMode="numeric"
            autoComplete="off"
            maxLength={14}
            value={person.cpf}
            onChange={(e) => setPerson({ ...person, cpf: e.target.value })}
          />
          <button
            type="submit"
            className={`${secondaryButtonClass} justify-self-start`}
            disabled={save.isPending}
          >
            {s.autorizado ? 'Trocar a pessoa autorizada' : 'Autorizar esta pessoa'}
          </button>
        </form>
      ) : (
        <p className="mt-2">{s.motivo}</p>
      )}
      {s.equipe ? (
        <div className="mt-3">
          <p>
            Equipe {s.equipe.nome}:{' '}
            {s.equipe.autorizada
              ? 'quem a equipe enviar pode retirar o seu kit junto com os da equipe.'
              : 'o seu kit não sai com os da equipe.'}
          </p>
          {s.equipe.autorizada || s.permitido ? (
            <button
              type="button"
              className={`${secondaryButtonClass} mt-2`}
              disabled={team.isPending}
              onClick={() => void sendTeam(!s.equipe?.autorizada)}
            >
              {s.equipe.autorizada
                ? `Não deixar a equipe ${s.equipe.nome} retirar o meu kit`
                : `Deixar a equipe ${s.equipe.nome} retirar o meu kit`}
            </button>
          ) : null}
        </div>
      ) : null}
      <FormStatus message={message?.text ?? null} tone={message?.tone ?? 'success'} />
    </div>
  );
}
