import type { RegistrationLookup } from '@passada/core/contracts/registrations';
import { formatRegistrationPrice } from '@passada/core/events';
import { reaisToCents } from '@passada/core/money';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { FormStatus } from '../../../components/form-field.tsx';
import { RegistrationNotas } from '../../../components/nota-links.tsx';
import { formatReais } from '../../../components/price.tsx';
import { eventQuery } from '../../../lib/events-api.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { registrationTicketQuery } from '../api/registrations-api.ts';
import { cancelledText, RunnerCancel } from './runner-cancel.tsx';
import { RunnerChanges } from './runner-changes.tsx';
import { RunnerDistanceChange } from './runner-distance-change.tsx';
import { RunnerPickupDelegate } from './runner-pickup-delegate.tsx';
import { RunnerReferral } from './runner-referral.tsx';
import { RunnerRuleDifference } from './runner-rule-difference.tsx';
import { RunnerSizeChange } from './runner-size-change.tsx';
import { RunnerTransfer } from './runner-transfer.tsx';

/**
 * One registration as its runner sees it: data, kit pickup, the QR ticket and what the runner may do
 * alone. The CPF lookup page and "Minhas inscrições" show the same card.
 */
export function RegistrationCard({
  registration,
  title,
  onChanged,
  summary = false,
}: {
  registration: RegistrationLookup;
  title: string;
  onChanged(): void;
  /** A list of several ("Minhas inscrições"): what identifies it in view, the participant's data folded. */
  summary?: boolean;
}) {
  const titleId = useId();
  // What the runner's own cancellation returned, and to whom: said once it is done, beside the card's note.
  const [cancelled, setCancelled] = useState<string | null>(null);
  // One column on a phone, long e-mails and addresses broken rather than cut at the card's edge.
  const dlClass =
    'mt-3 grid grid-cols-1 gap-x-4 gap-y-1 sm:grid-cols-[auto_1fr] sm:gap-y-2 [&_dd]:min-w-0 [&_dd]:[overflow-wrap:anywhere] [&_dd]:mb-1 sm:[&_dd]:mb-0';
  const { data: event } = useQuery(eventQuery(String(registration.evento_detalhes.id)));
  // "Minhas inscrições" leaves the QR code out (docs/decisions/0047): each card asks for its own.
  const ticket = useQuery({
    ...registrationTicketQuery(registration.id),
    enabled: !registration.qr_code && !registration.cancelada_em,
  });
  const qrCode = registration.qr_code ?? (registration.cancelada_em ? undefined : ticket.data?.qr_code);
  const contact = (
    <>
      <dt className="font-medium">E-mail</dt>
      <dd>{registration.email}</dd>
      <dt className="font-medium">Telefone</dt>
      <dd>{registration.numero_contato}</dd>
    </>
  );
  const address = (
    <>
      <dt className="font-medium">Endereço</dt>
      <dd>{registration.endereco}</dd>
    </>
  );
  const rest = (
    <>
      {registration.equipe ? (
        <>
          <dt className="font-medium">Equipe</dt>
          <dd>{registration.equipe}</dd>
        </>
      ) : null}
      <dt className="font-medium">Faixa etária</dt>
      <dd>{registration.faixa_etaria}</dd>
      {registration.meia_entrada ? (
        <>
          <dt className="font-medium">Meia-entrada</dt>
          <dd>60+: leve um documento com foto à retirada do kit</dd>
        </>
      ) : null}
      {registration.kit_local_retirada ? (
        <>
          <dt className="font-medium">Retirada do kit</dt>
          <dd>{registration.kit_local_retirada}</dd>
        </>
      ) : null}
      {registration.kit_horarios_retirada ? (
        <>
          <dt className="font-medium">Datas e horários</dt>
          <dd className="whitespace-pre-line">{registration.kit_horarios_retirada}</dd>
        </>
      ) : null}
    </>
  );
  return (
    <section
      // In a list, two registrations of one race differ by their number and runner: one landmark each.
      aria-labelledby={summary ? `${titleId} ${titleId}-quem` : titleId}
      className="min-w-0 rounded-xl border border-stone-200 p-5 [overflow-wrap:anywhere] dark:border-stone-700"
    >
      <h2 id={titleId} className="text-lg font-semibold">
        {title}
      </h2>
      {summary ? (
        <p id={`${titleId}-quem`} className="text-sm text-stone-700 dark:text-stone-300">
          Inscrição nº {registration.id} · {registration.nome_completo}
        </p>
      ) : null}
      {registration.cancelada_em ? (
        <p className="mt-2 font-semibold text-red-700 dark:text-red-400">
          Inscrição cancelada em {formatDateTime(registration.cancelada_em)}: a vaga foi liberada e o valor a
          devolver volta pelo mesmo meio de pagamento.
        </p>
      ) : null}
      <FormStatus message={cancelled} tone="success" />
      <dl className={dlClass}>
        <dt className="font-medium">Nome</dt>
        <dd>{registration.nome_completo}</dd>
        {summary ? null : contact}
        <dt className="font-medium">Evento</dt>
        <dd>{registration.evento_detalhes.nome_evento}</dd>
        <dt className="font-medium">Categorias</dt>
        <dd>
          {registration.categoria_evento_detalhes
            .map((c) => (c.onda ? `${c.nome_categoria} (largada: ${c.onda})` : c.nome_categoria))
            .join(', ')}
        </dd>
        {summary ? null : address}
        <dt className="font-medium">Inscrição nº</dt>
        <dd>{registration.id}</dd>
        {registration.tamanho_camisa ? (
          <>
            <dt className="font-medium">Camisa</dt>
            <dd>{registration.tamanho_camisa}</dd>
          </>
        ) : null}
        <dt className="font-medium">Valor</dt>
        <dd>
          {formatRegistrationPrice(reaisToCents(registration.total))}
          {registration.cupom
            ? ` (cupom ${registration.cupom}: −${formatReais(registration.desconto ?? 0)})`
            : null}
        </dd>
        {summary ? null : rest}
      </dl>
      {summary ? (
        <details className="mt-3">
          <summary className="cursor-pointer font-medium text-brand-800 underline dark:text-brand-100">
            Dados do participante e retirada do kit
          </summary>
          <dl className={dlClass}>
            {contact}
            {address}
            {rest}
          </dl>
        </details>
      ) : null}
      {registration.historico && registration.historico.length > 0 ? (
        <section aria-label={`Histórico de alterações da inscrição nº ${registration.id}`} className="mt-4">
          <h3 className="font-semibold">Histórico de alterações</h3>
          <ul className="list-disc pl-5 text-sm">
            {registration.historico.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </section>
      ) : null}
      {registration.indicacao && !registration.cancelada_em ? (
        <RunnerReferral registrationId={registration.id} referral={registration.indicacao} />
      ) : null}
      {qrCode ? (
        <figure className="mt-4 text-center">
          <img
            src={qrCode}
            alt={`QR code da inscrição nº ${registration.id}`}
            width={200}
            height={200}
            className="mx-auto"
          />
          <figcaption className="text-sm">
            Apresente este QR code na retirada do kit. Ele é pessoal e comprova a inscrição: não o publique
            nem o compartilhe.
          </figcaption>
        </figure>
      ) : null}
      <RegistrationNotas registrationId={registration.id} />
      {registration.cancelada_em ? null : (
        <RunnerRuleDifference
          refused={registration.comprovante_recusado === true}
          base={`/api/inscricoes/${registration.id}`}
          pays={{ inscricao: registration.id }}
          onPaid={onChanged}
        />
      )}
      {registration.cancelada_em ? null : (
        <RunnerCancel
          registrationId={registration.id}
          eventId={registration.evento_detalhes.id}
          onCancelled={(after) => {
            setCancelled(cancelledText(after));
            onChanged();
          }}
        />
      )}
      {registration.cancelada_em ? null : <RunnerTransfer registrationId={registration.id} />}
      {registration.cancelada_em ? null : (
        <RunnerPickupDelegate base={`/api/inscricoes/${registration.id}`} />
      )}
      {registration.cancelada_em || !event ? null : (
        <RunnerDistanceChange
          base={`/api/inscricoes/${registration.id}`}
          event={event}
          current={registration.categoria_evento_detalhes.map((c) => c.id)}
          pays={{ inscricao: registration.id }}
          onChanged={onChanged}
        />
      )}
      {registration.cancelada_em || !event ? null : (
        <RunnerChanges
          base={`/api/inscricoes/${registration.id}`}
          event={event}
          current={registration.categoria_evento_detalhes.map((c) => c.id)}
          currentSize={registration.tamanho_camisa}
          pays={{ inscricao: registration.id }}
          onChanged={onChanged}
        />
      )}
      {registration.cancelada_em || !event ? null : (
        <RunnerSizeChange
          registrationId={registration.id}
          event={event}
          current={registration.tamanho_camisa}
          onChanged={onChanged}
        />
      )}
    </section>
  );
}
