import { formatStoreDateTime } from '@passada/core/calendar';
import { WAITLIST_STATUS_LABELS } from '@passada/core/contracts/waitlist';
import { usePainelWaitlist } from '../api/waitlist.ts';

const HISTORY: Record<string, string> = {
  entrou: 'entrou',
  oferta: 'vaga oferecida',
  oferta_expirada: 'oferta expirada',
  aceitou: 'aceitou',
  devolvida: 'pagamento não concluído',
  inscrita: 'inscrita',
  saiu: 'saiu',
};

/**
 * The event's waitlists in the back office (docs/decisions/0042-waitlist.md): per category with a
 * waitlist, everyone in line with their position, the offer's deadline and what happened.
 */
export function EventWaitlist({ eventId }: { eventId: number }) {
  const query = usePainelWaitlist(eventId);
  if (!query.data) return query.isError ? <p className="mt-8">Lista de espera indisponível agora.</p> : null;
  const categories = query.data.categorias.filter((c) => c.lista_espera || c.entradas.length > 0);
  return (
    <section aria-labelledby="lista-espera" className="mt-8 grid gap-4">
      <h2 id="lista-espera" className="text-xl font-bold">
        Lista de espera
      </h2>
      {categories.length === 0 ? (
        <p className="text-sm">Nenhuma categoria deste evento tem lista de espera.</p>
      ) : null}
      {categories.map((c) => (
        <div key={c.id} className="grid gap-2">
          <h3 className="font-semibold">{c.nome}</h3>
          {c.entradas.length === 0 ? (
            <p className="text-sm">Ninguém na fila.</p>
          ) : (
            <table className="text-left text-sm">
              <caption className="sr-only">Lista de espera de {c.nome}</caption>
              <thead>
                <tr>
                  <th scope="col">Posição</th>
                  <th scope="col">Nome</th>
                  <th scope="col">E-mail</th>
                  <th scope="col">Situação</th>
                  <th scope="col">Oferta até</th>
                  <th scope="col">Histórico</th>
                </tr>
              </thead>
              <tbody>
                {c.entradas.map((e) => (
                  <tr key={e.id}>
                    <td>{e.posicao ?? '—'}</td>
                    <td>{e.nome_completo}</td>
                    <td>{e.email}</td>
                    <td>{WAITLIST_STATUS_LABELS[e.status]}</td>
                    <td>{e.oferta_expira_em ? formatStoreDateTime(new Date(e.oferta_expira_em)) : '—'}</td>
                    <td>
                      {e.historico
                        .map((h) => `${HISTORY[h.tipo] ?? h.tipo} em ${formatStoreDateTime(new Date(h.em))}`)
                        .join('; ')}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      ))}
    </section>
  );
}
