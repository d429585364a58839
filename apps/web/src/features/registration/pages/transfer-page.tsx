import type { TransferInvite } from '@passada/core/contracts/after-sale';
import { isRealIsoDate, type Participant } from '@passada/core/contracts/registrations';
import { reaisToCents } from '@passada/core/money';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useParams } from 'react-router';
import { AfterSaleRules } from '../../../components/after-sale-rules.tsx';
import { useAlert } from '../../../components/dialog.tsx';
import { primaryButtonClass, SelectField } from '../../../components/form-field.tsx';
import {
  type PaymentMethod,
  PaymentMethodButtons,
  PaymentStep,
  usePaymentStep,
} from '../../../components/payments/payment-step.tsx';
import { formatReais } from '../../../components/price.tsx';
import { eventQuery } from '../../../lib/events-api.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useSession } from '../../../lib/session.tsx';
import { transferInviteQuery, transferPriceQuery } from '../api/transfer-api.ts';
import { ParticipantFields } from '../components/participant-form.tsx';
import { RaceFields } from '../components/race-fields.tsx';
import { useParticipantForm } from '../hooks/use-participant-form.ts';

const ENDED: Record<Exclude<TransferInvite['status'], 'pendente'>, string> = {
  concluida: 'Esta transferência já foi concluída.',
  cancelada: 'Esta transferência foi cancelada por quem a enviou.',
  expirada: 'O prazo desta transferência terminou. Peça a quem a enviou que faça uma nova.',
};

/**
 * /inscricoes/transferencia/{token} (docs/decisions/0041): the new runner of a transferred
 * registration fills in their own data, accepts the termo in its current version and pays the fee
 * (plus the 60+ difference) by Pix or card; the server checks and prices everything again.
 */
export default function TransferPage() {
  const { token = '' } = useParams();
  const invite = useQuery(transferInviteQuery(token));
  if (invite.isPending)
    return (
      <main className="mx-auto max-w-3xl px-4 py-10">
        <p role="status">Carregando transferência...</p>
      </main>
    );
  if (!invite.data)
    return (
      <main className="mx-auto max-w-3xl px-4 py-10">
        <h1 className="text-2xl font-bold">Transferência não encontrada.</h1>
        <p className="mt-4">Confira o link do e-mail que você recebeu.</p>
      </main>
    );
  if (invite.data.status !== 'pendente')
    return (
      <main className="mx-auto max-w-3xl px-4 py-10">
        <h1 className="text-2xl font-bold">Transferência de inscrição</h1>
        <p className="mt-4">{ENDED[invite.data.status]}</p>
      </main>
    );
  return <TransferCheckout token={token} invite={invite.data} />;
}

function TransferCheckout({ token, invite }: { token: string; invite: TransferInvite }) {
  const { profile } = useSession();
  const [alertElement, showAlert] = useAlert();
  const eventQ = useQuery(eventQuery(String(invite.evento.id)));
  const [method, setMethod] = useState<PaymentMethod | null>(null);
  const [draft, setDraft] = useState<(Participant & { transferencia: string }) | null>(null);
  const start = { paraMim: false, eventoId: invite.evento.id, categorias: invite.categoria_evento };
  const { form } = useParticipantForm(start, eventQ.data?.termo_versao);
  const {
    register,
    handleSubmit,
    watch,
    setValue,
    formState: { errors },
  } = form;
  // The holder named the new runner: their name, CPF and e-mail come filled in.
  const filled = useRef(false);
  useEffect(() => {
    if (filled.current) return;
    filled.current = true;
    setValue('nome_completo', invite.nome_completo);
    setValue('cpf', invite.cpf);
    setValue('email', invite.email);
  }, [invite, setValue]);
  const step = usePaymentStep({
    // The paid charge itself completes the transfer; nothing else to record.
    fulfil: () => Promise.resolve(),
    texts: {
      finishing: 'Concluindo transferência...',
      failure: 'Erro ao concluir a transferência.',
      successTitle: 'Transferência concluída!',
      successText: 'A inscrição agora é sua: você receberá o QR code da retirada do kit por e-mail.',
    },
    redirectTo: `/eventos/register/${invite.evento.id}/ja-me-inscrevi`,
    leaveOnClose: false,
    showAlert,
  });
  const birthDate = watch('data_nascimento');
  const price = useQuery(transferPriceQuery(token, isRealIsoDate(birthDate) ? birthDate : null));

  const event = eventQ.data;
  if (!event)
    return (
      <main className="mx-auto max-w-3xl px-4 py-10">
        <p role="status">Carregando evento...</p>
      </main>
    );

  const withToken = (data: Participant) => ({ ...data, transferencia: token });
  const choose = (next: PaymentMethod) =>
    void handleSubmit((data) => {
      setDraft(withToken(data));
      setMethod(next);
    })();
  const confirmFree = () =>
    void handleSubmit(async (data) => {
      const d = withToken(data);
      setDraft(d);
      await step.confirmWithoutPayment('inscricao', d);
    })();
  const totalCents = price.data ? reaisToCents(price.data.total) : null;
  const frozen = method !== null || step.locked || step.succeeded;
  const locked = method === 'pix' || step.succeeded;
  // The size is asked here, not in the race fields: the registration's own shirt is kept unless the new
  // runner picks another size that is left (the server checks the stock and holds it at payment).
  const withoutSizes = { ...event, kit: { ...event.kit, tamanhos: [] } };
  const otherSizes = event.kit.tamanhos.filter((k) => k.tamanho !== invite.tamanho_camisa);

  return (
    <main className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-2xl font-bold">Concluir transferência de inscrição</h1>
      <p className="mt-2">
        {invite.de} transferiu para você a inscrição nº {invite.inscricao} em {invite.evento.nome_evento} (
        {invite.categorias.join(', ')}
        {invite.tamanho_camisa ? `; camisa ${invite.tamanho_camisa}` : ''}). Preencha os seus dados até{' '}
        {formatDateTime(invite.expira_em)}.
      </p>

      <form className="mt-6" noValidate onSubmit={(e) => e.preventDefault()} aria-labelledby="novo-titulo">
        <h2 id="novo-titulo" className="mb-4 text-lg font-semibold">
          Seus dados
        </h2>
        <fieldset disabled={frozen} className="contents">
          <ParticipantFields register={register} errors={errors} lockProfile={false} lockAddress={false} />
          {invite.tamanho_camisa && otherSizes.length > 0 ? (
            <SelectField
              label="Tamanho da camisa"
              error={errors.tamanho_camisa?.message}
              {...register('tamanho_camisa', {
                setValueAs: (v: string) => (v === '' || v === undefined ? undefined : Number(v)),
              })}
            >
              <option value="">{`${invite.tamanho_camisa} (a camisa da inscrição)`}</option>
              {otherSizes.map((k) => (
                <option key={k.id} value={k.id} disabled={k.quantidade_disponivel <= 0}>
                  {k.quantidade_disponivel <= 0 ? `${k.tamanho} — Esgotado` : k.tamanho}
                </option>
              ))}
            </SelectField>
          ) : null}
          <RaceFields event={withoutSizes} register={register} errors={errors} control={form.control} />
        </fieldset>
      </form>

      <section aria-labelledby="valor-titulo" className="mt-6">
        <h2 id="valor-titulo" className="text-lg font-semibold">
          Valor
        </h2>
        {price.data ? (
          <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4">
            <dt>Taxa de transferência</dt>
            <dd>{formatReais(price.data.taxa)}</dd>
            <dt>{price.data.aviso ? 'Diferença até o preço do lote' : 'Diferença (meia-entrada 60+)'}</dt>
            <dd>{formatReais(price.data.diferenca)}</dd>
            <dt className="font-semibold">Total</dt>
            <dd className="font-semibold">{formatReais(price.data.total)}</dd>
          </dl>
        ) : null}
        {price.data?.aviso ? <p className="mt-2 text-sm font-medium">{price.data.aviso}</p> : null}
        {price.data ? null : <p className="mt-2">Informe a data de nascimento para ver o valor.</p>}
      </section>

      {totalCents === 0 ? (
        <section aria-labelledby="confirmacao-titulo" className="mt-8">
          <h2 id="confirmacao-titulo" className="text-lg font-semibold">
            Confirmação
          </h2>
          <p className="mt-2">Não há nada a pagar.</p>
          <button
            type="button"
            className={`${primaryButtonClass} mt-3`}
            disabled={frozen}
            onClick={confirmFree}
          >
            Concluir transferência
          </button>
          <PaymentStep
            step={step}
            method={null}
            purpose="inscricao"
            draft={draft}
            totalCents={0}
            description={`Transferência ${invite.evento.nome_evento}`}
            payer={{ email: profile?.email ?? '', phone: '' }}
          />
        </section>
      ) : null}

      {totalCents !== null && totalCents > 0 ? (
        <section aria-labelledby="pagamento-titulo" className="mt-8">
          <h2 id="pagamento-titulo" className="text-lg font-semibold">
            Pagamento
          </h2>
          <PaymentMethodButtons method={method} locked={locked} onChoose={choose} />
          <div className="mt-6">
            <PaymentStep
              step={step}
              method={draft ? method : null}
              purpose="inscricao"
              draft={draft}
              totalCents={totalCents}
              description={`Transferência ${invite.evento.nome_evento}`}
              payer={{ email: profile?.email ?? draft?.email ?? '', phone: draft?.numero_contato ?? '' }}
            />
          </div>
        </section>
      ) : null}
      <AfterSaleRules eventId={invite.evento.id} />
      {alertElement}
    </main>
  );
}
