import { formatIsoDateBR } from '@passada/core/calendar';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { AccountLayout } from '../../../components/account-layout.tsx';
import { AccountPayments } from '../../../components/payments/account-payments.tsx';
import { myResultsQuery } from '../../../lib/results-api.ts';
import { accountRegistrationsQuery } from '../api/registrations-api.ts';
import { NextEditionSignup } from '../components/next-edition-signup.tsx';
import { RegistrationCard } from '../components/registration-card.tsx';

function Registrations() {
  const queryClient = useQueryClient();
  const { data, isPending, isError } = useQuery(accountRegistrationsQuery);
  if (isPending) return <p role="status">Carregando inscrições...</p>;
  if (isError) return <p role="alert">Não foi possível carregar suas inscrições. Tente novamente.</p>;
  if (data.length === 0)
    return (
      <p>
        Você ainda não fez nenhuma inscrição.{' '}
        <Link to="/eventos" className="font-semibold underline">
          Veja as corridas abertas
        </Link>
        .
      </p>
    );
  const refresh = () => void queryClient.invalidateQueries({ queryKey: accountRegistrationsQuery.queryKey });
  return (
    <div className="flex flex-col gap-5">
      {data.map((registration) => (
        <RegistrationCard
          key={registration.id}
          registration={registration}
          title={
            registration.evento_detalhes.data
              ? `${registration.evento_detalhes.nome_evento}, ${formatIsoDateBR(registration.evento_detalhes.data)}`
              : registration.evento_detalhes.nome_evento
          }
          onChanged={refresh}
          summary
        />
      ))}
    </div>
  );
}

/**
 * "Meus resultados": the published results of the account's registrations, each linking to its page,
 * with the next edition's pre-registration in one click when staff linked one.
 */
function MyResults() {
  const { data } = useQuery(myResultsQuery);
  if (!data?.length) return null;
  return (
    <section aria-labelledby="meus-resultados" className="mb-8">
      <h2 id="meus-resultados" className="mb-3 text-xl font-bold">
        Meus resultados
      </h2>
      <ul className="flex flex-col gap-2">
        {data.map((r) => (
          <li key={`${r.evento_id}-${r.numero}-${r.categoria}`}>
            <Link to={`/eventos/resultados/${r.evento_id}/${r.numero}`} className="font-semibold underline">
              {r.nome}: {r.evento}, {r.categoria}
            </Link>{' '}
            ({formatIsoDateBR(r.data)}): {r.tempo ?? r.situacao}
            {r.colocacao_geral ? `, ${r.colocacao_geral}º no geral` : ''}
            <NextEditionSignup result={r} />
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * /user/inscricoes: the account's registrations, paid on the event page or inside an order, each with its
 * ticket and what the runner may do alone; the CPF lookup is not needed to find them.
 */
export default function MyRegistrationsPage() {
  const queryClient = useQueryClient();
  return (
    <AccountLayout title="Inscrições">
      <AccountPayments
        purpose="inscricao"
        onSettled={() => void queryClient.invalidateQueries({ queryKey: accountRegistrationsQuery.queryKey })}
      />
      <MyResults />
      <Registrations />
    </AccountLayout>
  );
}
