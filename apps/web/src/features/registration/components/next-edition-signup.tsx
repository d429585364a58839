import type { MyResults } from '@passada/core/contracts/results';
import { Link } from 'react-router';
import { secondaryButtonClass } from '../../../components/form-field.tsx';
import { nextEditionErrorText, useNextEditionSignup } from '../../../lib/results-api.ts';

/**
 * The loop back (decision 0064, later): beside a result in "Meus resultados", one click pre-registers
 * its runner in the next edition (its lottery, or the waitlist of a sold-out race) with the data of the
 * race run. Refusals are the shop's own words, with the next edition's page to choose or register there.
 */
export function NextEditionSignup({ result }: { result: MyResults[number] }) {
  const signup = useNextEditionSignup();
  const next = result.proxima_edicao;
  if (!next) return null;
  return (
    <div className="mt-1 flex flex-col gap-1">
      {signup.isSuccess ? (
        <p role="status" className="text-green-800 dark:text-green-300">
          {signup.data.mensagem}
        </p>
      ) : (
        <button
          type="button"
          className={`${secondaryButtonClass} self-start`}
          disabled={signup.isPending}
          onClick={() => signup.mutate(result.inscricao)}
        >
          Pré-inscrever {result.nome} em {next.nome}
        </button>
      )}
      {signup.isError ? (
        <p role="alert" className="text-red-700 dark:text-red-400">
          {nextEditionErrorText(signup.error)}{' '}
          <Link to={`/eventos/register/${next.id}`} className="font-semibold underline">
            Ver a próxima edição
          </Link>
        </p>
      ) : null}
    </div>
  );
}
