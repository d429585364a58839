import { formatIsoDateBR } from '@passada/core/calendar';
import type { CompanyTaker, MyTeam } from '@passada/core/contracts/teams';
import { reaisToCents } from '@passada/core/money';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useCopyLink } from '../../../components/copy-link.tsx';
import { ConfirmDialog, useAlert } from '../../../components/dialog.tsx';
import {
  FormField,
  FormStatus,
  primaryButtonClass,
  SelectField,
  secondaryButtonClass,
} from '../../../components/form-field.tsx';
import { TeamPlacesNotas } from '../../../components/nota-links.tsx';
import { PaymentStep, usePaymentStep } from '../../../components/payments/payment-step.tsx';
import { formatReais } from '../../../components/price.tsx';
import { ApiRequestError } from '../../../lib/api.ts';
import { eventQuery } from '../../../lib/events-api.ts';
import { formatDate } from '../../../lib/format.ts';
import { useCloseTeamPlaces, useRefreshTeams } from '../api/teams-api.ts';
import { type CompanyDraft, CompanyFields, checkCompany, EMPTY_COMPANY } from './company-fields.tsx';

type Batch = MyTeam['vagas'][number];

const errorText = (err: unknown) =>
  err instanceof ApiRequestError ? (err.body?.detail ?? err.message) : 'Não foi possível. Tente de novo.';

/**
 * The places a captain bought for the team (docs/decisions/0073): each purchase with what members
 * claimed, its link to share and its deadline; and the form to buy more by Pix.
 */
export function TeamPlaces({ team }: { team: MyTeam }) {
  return (
    <section aria-labelledby={`vagas-${team.id}`} className="mt-4">
      <h4 id={`vagas-${team.id}`} className="font-medium">
        Vagas pagas pela equipe
      </h4>
      {team.vagas.length === 0 ? (
        <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
          Pague várias vagas de uma vez e envie o link: cada membro usa uma com os próprios dados.
        </p>
      ) : (
        <ul className="mt-2 flex flex-col gap-3">
          {team.vagas.map((b) => (
            <BatchItem key={b.id} team={team} batch={b} />
          ))}
        </ul>
      )}
      {team.evento ? <BuyPlaces team={team} eventId={team.evento.id} /> : null}
    </section>
  );
}

function BatchItem({ team, batch }: { team: MyTeam; batch: Batch }) {
  const close = useCloseTeamPlaces();
  const [asking, setAsking] = useState(false);
  const link = `${window.location.origin}${batch.link}`;
  const label = `${batch.quantidade} vagas de ${batch.categoria.nome}`;
  const { said: copied, copy } = useCopyLink(link);
  const what =
    batch.nao_resgatadas === 'devolver'
      ? `As ${batch.disponiveis} vagas não usadas serão devolvidas a você (${formatReais(batch.disponiveis * batch.preco)}).`
      : `As ${batch.disponiveis} vagas não usadas voltam à venda, sem devolução do valor (regra do evento).`;
  return (
    <li className="rounded-lg border border-stone-200 p-3 text-sm dark:border-stone-800">
      <p className="font-medium">
        {label} em {batch.evento.nome}
      </p>
      <TeamPlacesNotas batchId={batch.id} />
      <p>
        {batch.resgatadas} {batch.resgatadas === 1 ? 'usada' : 'usadas'} · {batch.disponiveis}{' '}
        {batch.disponiveis === 1 ? 'restante' : 'restantes'} · {formatReais(batch.preco)} cada · até{' '}
        {formatIsoDateBR(batch.prazo)}
      </p>
      {batch.parte_membro > 0 ? (
        <p>
          A equipe pagou {batch.percentual}% de cada vaga: cada membro paga {formatReais(batch.parte_membro)}{' '}
          ao usar a sua.
        </p>
      ) : null}
      {batch.encerrado_em ? (
        <p>
          Encerradas em {formatDate(batch.encerrado_em)}
          {batch.devolvido > 0 ? `; ${formatReais(batch.devolvido)} devolvidos a você.` : '.'}
        </p>
      ) : (
        <>
          <p className="mt-1 break-all">{link}</p>
          <p className="text-stone-600 dark:text-stone-400">
            {batch.nao_resgatadas === 'devolver'
              ? 'Vagas não usadas até o prazo são devolvidas a você.'
              : 'Vagas não usadas até o prazo voltam à venda, sem devolução (regra do evento).'}
          </p>
          <div className="mt-2 flex flex-wrap items-center gap-3">
            <button type="button" className={secondaryButtonClass} onClick={() => void copy()}>
              Copiar link das {label}
            </button>
            {batch.disponiveis > 0 ? (
              <button
                type="button"
                className={secondaryButtonClass}
                disabled={close.isPending}
                onClick={() => setAsking(true)}
              >
                Encerrar as {label}
              </button>
            ) : null}
            {copied ? <p role="status">{copied}</p> : null}
            {close.isError ? <FormStatus message={errorText(close.error)} tone="error" /> : null}
          </div>
        </>
      )}
      {asking ? (
        <ConfirmDialog
          question={`Encerrar as ${label} agora? Ninguém mais poderá usá-las. ${what}`}
          confirmLabel="Encerrar vagas"
          onCancel={() => setAsking(false)}
          onConfirm={() => {
            setAsking(false);
            close.mutate({ team: team.id, batch: batch.id });
          }}
        />
      ) : null}
    </li>
  );
}

/** How many places of which distance; the server prices them at today's lot and holds them at the Pix. */
function BuyPlaces({ team, eventId }: { team: MyTeam; eventId: number }) {
  const event = useQuery(eventQuery(String(eventId)));
  const refresh = useRefreshTeams();
  const [alertElement, showAlert] = useAlert();
  const [category, setCategory] = useState('');
  const [quantity, setQuantity] = useState('');
  const [draft, setDraft] = useState<{
    equipe: number;
    categoria: number;
    quantidade: number;
    empresa?: CompanyTaker;
    percentual?: number;
  } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [forCompany, setForCompany] = useState(false);
  // The share of each place the team pays (docs/decisions/0079); each member pays the rest.
  const [share, setShare] = useState('100');
  const [company, setCompany] = useState<CompanyDraft>(EMPTY_COMPANY);
  const [companyErrors, setCompanyErrors] = useState<Record<string, string>>({});
  const step = usePaymentStep({
    fulfil: () => refresh(),
    texts: {
      finishing: 'Registrando as vagas...',
      failure: 'Erro ao registrar as vagas.',
      successTitle: 'Vagas pagas!',
      successText: 'Copie o link das vagas e envie aos membros: cada um usa uma com os próprios dados.',
    },
    redirectTo: '/user/equipes',
    leaveOnClose: false,
    showAlert,
  });
  const categories = (event.data?.dias_evento ?? [])
    .flatMap((d) => d.categorias)
    .filter((c) => c.quantidade_disponivel > 0);
  const chosen = categories.find((c) => String(c.id) === category);
  const priceOf = (c: (typeof categories)[number]) => c.lote_atual?.preco ?? c.preco_inscricao;
  // A relay (docs/decisions/0078): its legs together, at the category's price per team.
  const legs = chosen?.revezamento;
  const n = legs ?? Number(quantity);
  const percent = legs ? 100 : Number(share);
  const validShare = Number.isInteger(percent) && percent >= 1 && percent <= 100;
  // The server's rounding: the team's share of one place, to the cent.
  const placeCents = chosen ? reaisToCents(priceOf(chosen)) : 0;
  const shareCents = Math.round((placeCents * (validShare ? percent : 100)) / 100);
  const totalCents =
    chosen && Number.isInteger(n) && n >= 2 && validShare ? (legs ? placeCents : shareCents * n) : null;
  const choose = () => {
    setError(null);
    if (!chosen) return setError('Escolha a distância.');
    if (!Number.isInteger(n) || n < 2) return setError('Compre pelo menos 2 vagas.');
    if (!validShare) return setError('A parte paga pela equipe vai de 1% a 100%.');
    setCompanyErrors({});
    const base = {
      equipe: team.id,
      categoria: chosen.id,
      quantidade: n,
      ...(percent < 100 ? { percentual: percent } : {}),
    };
    if (!forCompany) return setDraft(base);
    const checked = checkCompany(company);
    if (!checked.ok) {
      setCompanyErrors(checked.errors);
      return setError('Confira os dados da empresa.');
    }
    setDraft({ ...base, empresa: checked.company });
  };
  const id = `comprar-${team.id}`;
  return (
    <form
      className="mt-3 rounded-lg border border-stone-200 p-3 dark:border-stone-800"
      aria-labelledby={id}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        choose();
      }}
    >
      <h5 id={id} className="font-medium">
        Comprar vagas para a equipe {team.nome}
      </h5>
      <fieldset disabled={draft !== null} className="mt-2 grid gap-3 sm:grid-cols-2">
        <SelectField label="Distância" value={category} onChange={(e) => setCategory(e.target.value)}>
          <option value="">Selecione</option>
          {categories.map((c) => (
            <option key={c.id} value={c.id}>
              {c.revezamento
                ? `${c.nome_categoria} — revezamento de ${c.revezamento}: ${formatReais(priceOf(c))} por equipe`
                : `${c.nome_categoria} — ${formatReais(priceOf(c))} por vaga`}
            </option>
          ))}
        </SelectField>
        <FormField
          label="Quantidade de vagas"
          type="number"
          inputMode="numeric"
          min={2}
          value={legs ? String(legs) : quantity}
          readOnly={Boolean(legs)}
          onChange={(e) => setQuantity(e.target.value)}
        />
        {legs ? null : (
          <FormField
            label="Parte de cada vaga paga pela equipe (%)"
            type="number"
            inputMode="numeric"
            min={1}
            max={100}
            value={share}
            onChange={(e) => setShare(e.target.value)}
          />
        )}
        <label className="flex items-center gap-2 sm:col-span-2">
          <input type="checkbox" checked={forCompany} onChange={(e) => setForCompany(e.target.checked)} />
          Uma empresa paga: nota fiscal em nome dela (CNPJ)
        </label>
        {forCompany ? (
          <div className="sm:col-span-2">
            <CompanyFields value={company} errors={companyErrors} onChange={setCompany} />
          </div>
        ) : null}
      </fieldset>
      {totalCents !== null ? (
        <p className="mt-2 font-medium">
          Total: {formatReais(totalCents / 100)}
          {percent < 100
            ? ` · cada membro paga ${formatReais((placeCents - shareCents) / 100)} ao usar a vaga`
            : ''}
        </p>
      ) : null}
      {draft === null ? (
        <div className="mt-3 flex flex-wrap items-center gap-3">
          <button type="submit" className={primaryButtonClass}>
            Pagar com Pix
          </button>
          {error ? <FormStatus message={error} tone="error" /> : null}
        </div>
      ) : (
        <div className="mt-3">
          <PaymentStep
            step={step}
            method="pix"
            purpose="vagas_equipe"
            draft={draft}
            totalCents={totalCents ?? 0}
            description={`Vagas da equipe ${team.nome}`}
            payer={{ email: '' }}
          />
          <button type="button" className={`${secondaryButtonClass} mt-3`} onClick={() => setDraft(null)}>
            Mudar a compra
          </button>
        </div>
      )}
      {alertElement}
    </form>
  );
}
