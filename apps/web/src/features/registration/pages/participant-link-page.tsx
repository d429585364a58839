import { zodResolver } from '@hookform/resolvers/zod';
import {
  type TransferRequest,
  type TransferRequestBody,
  TransferRequestSchema,
} from '@passada/core/contracts/after-sale';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useParams } from 'react-router';
import { AfterSaleRules } from '../../../components/after-sale-rules.tsx';
import { FormStatus, secondaryButtonClass } from '../../../components/form-field.tsx';
import { formatReais } from '../../../components/price.tsx';
import { ApiRequestError } from '../../../lib/api.ts';
import { eventQuery } from '../../../lib/events-api.ts';
import { formatDateTime } from '../../../lib/format.ts';
import {
  participantLinkPath,
  participantLinkQuery,
  useParticipantLinkAction,
  useRefreshParticipantLink,
} from '../api/after-sale-api.ts';
import { quoteText } from '../components/runner-cancel.tsx';
import { RunnerChanges } from '../components/runner-changes.tsx';
import { RunnerDistanceChange } from '../components/runner-distance-change.tsx';
import { RunnerPickupDelegate } from '../components/runner-pickup-delegate.tsx';
import { RunnerRuleDifference } from '../components/runner-rule-difference.tsx';
import { NewRunnerFields } from '../components/runner-transfer.tsx';

const errorText = (err: unknown, fallback: string) =>
  err instanceof ApiRequestError ? (err.body?.detail ?? err.message) : fallback;

/**
 * /inscricoes/link/{token} (docs/decisions/0041): the link e-mailed to the participant opens their one
 * registration, without the buyer's account: what cancelling returns, cancelling, transferring it and
 * changing its distance (a difference paid by Pix from the participant's own account).
 */
export default function ParticipantLinkPage() {
  const { token = '' } = useParams();
  const view = useQuery(participantLinkQuery(token));
  const eventId = view.data?.evento.id;
  const event = useQuery({ ...eventQuery(String(eventId ?? '')), enabled: eventId !== undefined });
  const [message, setMessage] = useState<{ text: string; tone: 'success' | 'error' } | null>(null);
  const refresh = useRefreshParticipantLink(token);
  // The link's registration is read afresh after each action, done or refused.
  const act = useParticipantLinkAction(token);
  const run = async (path: string, body: unknown, done: string) => {
    setMessage(null);
    try {
      await act.mutateAsync({ path, body });
      setMessage({ text: done, tone: 'success' });
    } catch (err) {
      setMessage({ text: errorText(err, 'Não foi possível concluir.'), tone: 'error' });
    }
  };
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<TransferRequest, unknown, TransferRequestBody>({
    resolver: zodResolver(TransferRequestSchema),
    defaultValues: { nome_completo: '', cpf: '', email: '' },
  });

  if (view.isPending)
    return (
      <main className="mx-auto max-w-3xl px-4 py-10">
        <p role="status">Carregando inscrição...</p>
      </main>
    );
  const v = view.data;
  if (!v)
    return (
      <main className="mx-auto max-w-3xl px-4 py-10">
        <h1 className="text-2xl font-bold">Link da inscrição</h1>
        <p className="mt-4">{errorText(view.error, 'Não foi possível abrir este link.')}</p>
      </main>
    );
  const q = v.cancelamento;
  const t = v.transferencia;
  return (
    <main className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-2xl font-bold">Inscrição nº {v.inscricao}</h1>
      <p className="mt-2">
        {v.nome_completo} — {v.evento.nome_evento} ({v.categorias.join(', ')}
        {v.tamanho_camisa ? `; camisa ${v.tamanho_camisa}` : ''})
      </p>
      {v.cancelada_em ? (
        <p className="mt-2 font-medium">Inscrição cancelada em {formatDateTime(v.cancelada_em)}.</p>
      ) : null}
      <FormStatus message={message?.text ?? null} tone={message?.tone ?? 'success'} />

      {v.cancelada_em ? null : (
        <section aria-labelledby="cancelar-titulo" className="mt-6">
          <h2 id="cancelar-titulo" className="text-lg font-semibold">
            Cancelar inscrição
          </h2>
          {q.permitido ? (
            <>
              <p className="mt-2">{quoteText(q)}</p>
              <button
                type="button"
                className={`${secondaryButtonClass} mt-2`}
                disabled={act.isPending}
                onClick={() =>
                  void run('cancelar/', { valor_devolvido: q.valor_devolvido }, 'Inscrição cancelada.')
                }
              >
                Confirmar cancelamento
              </button>
            </>
          ) : (
            <p className="mt-2">{q.motivo}</p>
          )}
        </section>
      )}

      {v.cancelada_em ? null : (
        <section aria-labelledby="transferir-titulo" className="mt-6">
          <h2 id="transferir-titulo" className="text-lg font-semibold">
            Transferir para outra pessoa
          </h2>
          {t.pendente ? (
            <>
              <p className="mt-2">
                Aguardando {t.pendente.nome_completo} ({t.pendente.email}) concluir até{' '}
                {formatDateTime(t.pendente.expira_em)}.
              </p>
              <button
                type="button"
                className={`${secondaryButtonClass} mt-2`}
                disabled={act.isPending}
                onClick={() => void run('transferencia/cancelar/', undefined, 'Transferência cancelada.')}
              >
                Cancelar transferência
              </button>
            </>
          ) : t.permitido ? (
            <form
              className="mt-2 grid gap-3"
              noValidate
              onSubmit={(e) =>
                void handleSubmit((to) =>
                  run('transferir/', to, `Enviamos a ${to.email} o link para concluir a transferência.`),
                )(e)
              }
            >
              <p className="text-sm">
                Taxa: {t.taxa > 0 ? formatReais(t.taxa) : 'sem taxa'}. A nova pessoa recebe um link por e-mail
                para preencher os próprios dados e pagar.
              </p>
              <NewRunnerFields register={register} errors={errors} />
              <button type="submit" className={secondaryButtonClass} disabled={act.isPending}>
                Enviar link de transferência
              </button>
            </form>
          ) : (
            <p className="mt-2">{t.motivo}</p>
          )}
        </section>
      )}
      {v.cancelada_em || !event.data ? null : (
        <RunnerDistanceChange
          base={participantLinkPath(token)}
          event={event.data}
          current={v.categoria_evento}
          pays={{ link: token }}
          onChanged={() => void refresh()}
        />
      )}
      {v.cancelada_em ? null : (
        <RunnerRuleDifference
          refused={v.comprovante_recusado === true}
          base={participantLinkPath(token)}
          pays={{ link: token }}
          onPaid={() => void refresh()}
        />
      )}
      {v.cancelada_em || !event.data ? null : (
        <RunnerChanges
          base={participantLinkPath(token)}
          event={event.data}
          current={v.categoria_evento}
          currentSize={v.tamanho_camisa}
          pays={{ link: token }}
          onChanged={() => void refresh()}
        />
      )}
      {v.cancelada_em ? null : <RunnerPickupDelegate base={participantLinkPath(token)} />}
      <AfterSaleRules eventId={v.evento.id} />
    </main>
  );
}
