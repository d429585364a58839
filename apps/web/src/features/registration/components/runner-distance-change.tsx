import { formatIsoDateBR } from '@passada/core/calendar';
import type { Event } from '@passada/core/contracts/events';
import { reaisToCents } from '@passada/core/money';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { FormStatus, inputClass, secondaryButtonClass } from '../../../components/form-field.tsx';
import { PixPanel } from '../../../components/payments/pix-panel.tsx';
import { formatReais } from '../../../components/price.tsx';
import { ApiRequestError } from '../../../lib/api.ts';
import { useSession } from '../../../lib/session.tsx';
import { distanceChangeQuery, useChangeDistance, useEventPlacesChanged } from '../api/after-sale-api.ts';
import { ChangeQuoteFigures } from './change-quote-figures.tsx';
import { SignInToPay } from './sign-in-to-pay.tsx';

const errorText = (err: unknown, fallback: string) =>
  err instanceof ApiRequestError ? (err.body?.detail ?? err.message) : fallback;

/**
 * "Trocar de distância" (docs/decisions/0041, 0047): the other categories of the same day with places
 * left, what the change costs or returns by the event's rules (priced by the server) before
 * confirming; something to pay is paid by Pix (the account's own registration), a cheaper one
 * confirms at once and the difference the rules return goes back by the same payment method.
 * `base` is the registration's API path: the account's (`/api/inscricoes/{id}`) or the participant's
 * link (`/api/inscricoes/link/{token}`); `pays` names the registration in the charge's draft: its id
 * (the account's own) or the link's token, paid from whichever account is signed in (a guest is sent
 * to log in and back to the link first).
 */
interface DistanceChangeProps {
  base: string;
  event: Event;
  /** The categories the registration holds now. */
  current: number[];
  pays: { inscricao: number } | { link: string };
  onChanged: () => void;
}

type Day = Event['dias_evento'][number];

/**
 * One change per day the registration runs (one category per day): a button that opens it, so the
 * card shows what the runner may do without every form open. On an event of several days each says
 * which day it changes.
 */
export function RunnerDistanceChange(props: DistanceChangeProps) {
  const days = props.event.dias_evento.filter(
    (d) => d.categorias.some((c) => props.current.includes(c.id)) && d.categorias.length > 1,
  );
  const several = props.event.dias_evento.length > 1;
  return days.map((day) => (
    <DayDistanceChange
      key={day.data}
      {...props}
      day={day}
      dayText={several ? formatIsoDateBR(day.data) : null}
    />
  ));
}

function DayDistanceChange(props: DistanceChangeProps & { day: Day; dayText: string | null }) {
  const { token } = useSession();
  const selectId = useId();
  const [open, setOpen] = useState(false);
  const [to, setTo] = useState('');
  const [paying, setPaying] = useState(false);
  const [message, setMessage] = useState<{ text: string; tone: 'success' | 'error' } | null>(null);
  // The day's other categories: one category per day, so the change stays on the same day.
  const { day, dayText } = props;
  const from = day.categorias.find((c) => props.current.includes(c.id));
  const options = day.categorias.filter((c) => c.id !== from?.id);
  const quote = useQuery(distanceChangeQuery(props.base, from?.id, to));
  const change = useChangeDistance(props.base);
  const placesChanged = useEventPlacesChanged();
  if (!from || options.length === 0) return null;
  const title = dayText ? `Trocar de distância do dia ${dayText}` : 'Trocar de distância';
  if (!open)
    return (
      <div className="mt-4">
        <button
          type="button"
          className={secondaryButtonClass}
          aria-expanded={false}
          onClick={() => setOpen(true)}
        >
          {title}
        </button>
        <FormStatus message={message?.text ?? null} tone={message?.tone ?? 'success'} />
      </div>
    );
  const chosen = options.find((c) => String(c.id) === to);
  const q = quote.data;

  const done = async (text: string, paidByPix = false) => {
    setMessage({ text, tone: 'success' });
    setTo('');
    setPaying(false);
    // A change paid by Pix is made by the payment (a confirmed one by its mutation, which reads them afresh).
    if (paidByPix) await placesChanged();
    props.onChanged();
  };
  const confirm = async () => {
    if (!q || !chosen) return;
    setMessage(null);
    try {
      await change.mutateAsync({ de: from.id, para: chosen.id, a_devolver: q.a_devolver });
      await done(
        q.a_devolver > 0
          ? `Distância trocada para ${chosen.nome_categoria}. ${formatReais(q.a_devolver)} voltam pelo mesmo meio de pagamento.`
          : `Distância trocada para ${chosen.nome_categoria}.`,
      );
    } catch (err) {
      setMessage({ text: errorText(err, 'Não foi possível trocar a distância.'), tone: 'error' });
      await quote.refetch();
    }
  };

  return (
    <section
      aria-label={'inscricao' in props.pays ? `${title} — inscrição nº ${props.pays.inscricao}` : title}
      className="mt-4"
    >
      <h3 className="font-semibold">{title}</h3>
      <p className="text-sm">Distância atual: {from.nome_categoria}</p>
      <div className="mt-2 flex flex-col gap-1">
        <label htmlFor={selectId} className="text-sm font-medium">
          {dayText ? `Nova distância do dia ${dayText}` : 'Nova distância'}
        </label>
        <select
          id={selectId}
          className={inputClass}
          value={to}
          disabled={paying}
          onChange={(e) => {
            setTo(e.target.value);
            setMessage(null);
          }}
        >
          <option value="">Selecione</option>
          {options.map((c) => (
            <option key={c.id} value={c.id} disabled={c.quantidade_disponivel <= 0}>
              {c.quantidade_disponivel <= 0 ? `${c.nome_categoria} — Esgotado` : c.nome_categoria}
            </option>
          ))}
        </select>
      </div>
      {to && quote.isPending ? <p role="status">Calculando...</p> : null}
      {to && quote.isError ? (
        <p role="alert">{errorText(quote.error, 'Não foi possível calcular.')}</p>
      ) : null}
      {q && chosen ? (
        q.permitido ? (
          <div className="mt-2">
            <ChangeQuoteFigures quote={q} />
            {q.aviso ? <p className="mt-2 text-sm font-medium">{q.aviso}</p> : null}
            {q.a_pagar === 0 ? (
              <button
                type="button"
                className={`${secondaryButtonClass} mt-2`}
                disabled={change.isPending}
                onClick={() => void confirm()}
              >
                Confirmar troca de distância
              </button>
            ) : !token ? (
              <SignInToPay amount={q.a_pagar} />
            ) : paying ? (
              <div className="mt-2">
                <PixPanel
                  finalidade="inscricao"
                  draft={{
                    troca_distancia: { ...props.pays, de: from.id, para: chosen.id },
                  }}
                  totalCents={reaisToCents(q.a_pagar)}
                  descricao={`Troca de distância: ${chosen.nome_categoria}`}
                  onPaid={() => void done(`Distância trocada para ${chosen.nome_categoria}.`, true)}
                  onError={(text) => setMessage({ text, tone: 'error' })}
                />
              </div>
            ) : (
              <button
                type="button"
                className={`${secondaryButtonClass} mt-2`}
                onClick={() => setPaying(true)}
              >
                Pagar {formatReais(q.a_pagar)} com Pix
              </button>
            )}
          </div>
        ) : (
          <p className="mt-2">{q.motivo}</p>
        )
      ) : null}
      <FormStatus message={message?.text ?? null} tone={message?.tone ?? 'success'} />
      <button
        type="button"
        className={`${secondaryButtonClass} mt-2`}
        disabled={paying}
        onClick={() => setOpen(false)}
      >
        Fechar
      </button>
    </section>
  );
}
