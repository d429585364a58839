import { FISCAL_KIND_LABELS, type Nota } from '@passada/core/contracts/fiscal';
import { useMyNotas } from '../lib/notas-api.ts';

/** "DANFE (PDF)" and "XML" links of authorised notas; nothing while none is ready. */
function NotaList({ notas, label, regionName }: { notas: Nota[]; label: string; regionName: string }) {
  const ready = notas.filter((n) => n.pdf_url && n.status === 'autorizada');
  if (!ready.length) return null;
  return (
    <section aria-label={regionName} className="mt-3 text-sm">
      <h3 className="font-semibold">{label}</h3>
      <ul className="mt-1 flex flex-col gap-1">
        {ready.map((n) => {
          const name = `${FISCAL_KIND_LABELS[n.tipo]} nº ${n.numero ?? n.id}`;
          return (
            <li key={n.id} className="flex flex-wrap gap-x-3">
              <span>{name}:</span>
              <a className="font-semibold underline" href={n.pdf_url!} target="_blank" rel="noreferrer">
                {n.tipo === 'nfse' ? `NFS-e (PDF) da ${name}` : `DANFE (PDF) da ${name}`}
              </a>
              <a className="underline" href={n.xml_url!} target="_blank" rel="noreferrer" download>
                {`XML da ${name}`}
              </a>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** The notas of one of the account's orders (its registrations' NFS-e are on the registration). */
export function OrderNotas({ orderId }: { orderId: number }) {
  const notas = useMyNotas();
  return (
    <NotaList
      notas={notas.data?.pedidos[String(orderId)] ?? []}
      label="Nota fiscal"
      regionName={`Nota fiscal do pedido nº ${orderId}`}
    />
  );
}

/** The NFS-e of a registration the account made. */
export function RegistrationNotas({ registrationId }: { registrationId: number }) {
  const notas = useMyNotas();
  return (
    <NotaList
      notas={notas.data?.inscricoes[String(registrationId)] ?? []}
      label="Nota fiscal de serviço"
      regionName={`Nota fiscal de serviço da inscrição nº ${registrationId}`}
    />
  );
}

/** The NFS-e of a team's places the account bought as captain (docs/decisions/0077). */
export function TeamPlacesNotas({ batchId }: { batchId: number }) {
  const notas = useMyNotas();
  return (
    <NotaList
      notas={notas.data?.equipes?.[String(batchId)] ?? []}
      label="Nota fiscal de serviço"
      regionName={`Nota fiscal das vagas nº ${batchId}`}
    />
  );
}
