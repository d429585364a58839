import { formatIsoDateBR } from '@passada/core/calendar';
import type { RegistrationOperationWire } from '@passada/core/contracts/after-sale';
import type { Event } from '@passada/core/contracts/events';
import { reaisToCents } from '@passada/core/money';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { FormStatus, inputClass, secondaryButtonClass } from '../../../components/form-field.tsx';
import { PixPanel } from '../../../components/payments/pix-panel.tsx';
import { formatReais } from '../../../components/price.tsx';
import { ApiRequestError } from '../../../lib/api.ts';
import { useSession } from '../../../lib/session.tsx';
import { changeListQuery, useApplyChangeList, useEventPlacesChanged } from '../api/after-sale-api.ts';
import { ChangeQuoteFigures } from './change-quote-figures.tsx';
import { SignInToPay } from './sign-in-to-pay.tsx';

const errorText = (err: unknown, fallback: string) =>
  err instanceof ApiRequestError ? (err.body?.detail ?? err.message) : fallback;

interface ChangesProps {
  /** The registration's API path: the account's (`/api/inscricoes/{id}`) or the participant's link. */
  base: string;
  event: Event;
  /** The categories the registration holds now, and its shirt size. */
  current: number[];
  currentSize: string | null;
  /** Who the charge of a list with something to pay names: the account's registration or the link. */
  pays: { inscricao: number } | { link: string };
  onChanged: () => void;
}

/**
 * "Alterar distância e camisa" (docs/decisions/0056, later): the runner picks a new distance for each
 * day and a new shirt size together, sees what the whole list costs or returns (priced by the server
 * under every rule) and confirms once; something to pay is paid by one Pix, which applies the list.
 */
export function RunnerChanges(props: ChangesProps) {
  const { token } = useSession();
  const formId = useId();
  const [open, setOpen] = useState(false);
  const [distances, setDistances] = useState<Record<string, string>>({});
  const [size, setSize] = useState('');
  const [paying, setPaying] = useState(false);
  const [message, setMessage] = useState<{ text: string; tone: 'success' | 'error' } | null>(null);
  const days = props.event.dias_evento.filter(
    (d) => d.categorias.some((c) => props.current.includes(c.id)) && d.categorias.length > 1,
  );
  const sizes = (props.event.kit?.tamanhos ?? []).filter((s) => s.tamanho !== props.currentSize);
  const operacoes: RegistrationOperationWire[] = [
    ...days.flatMap((d): RegistrationOperationWire[] => {
      const to = distances[d.data];
      const from = d.categorias.find((c) => props.current.includes(c.id));
      return to && from ? [{ tipo: 'distancia', categoria_id: Number(to), de: from.id }] : [];
    }),
    ...(size ? [{ tipo: 'camiseta' as const, tamanho: Number(size) }] : []),
  ];
  const quote = useQuery(changeListQuery(props.base, operacoes));
  const apply = useApplyChangeList(props.base);
  const placesChanged = useEventPlacesChanged();
  if (days.length === 0 && sizes.length === 0) return null;
  const several = props.event.dias_evento.length > 1;

  const reset = () => {
    setDistances({});
    setSize('');
    setPaying(false);
  };
  const done = async (text: string, paidByPix = false) => {
    setMessage({ text, tone: 'success' });
    reset();
    if (paidByPix) await placesChanged();
    props.onChanged();
  };
  const q = operacoes.length > 0 ? quote.data : undefined;
  const confirm = async () => {
    if (!q) return;
    setMessage(null);
    try {
      const after = await apply.mutateAsync({ operacoes, a_devolver: q.a_devolver });
      await done(
        after.a_devolver > 0
          ? `Alterações feitas. ${formatReais(after.a_devolver)} voltam pelo mesmo meio de pagamento.`
          : 'Alterações feitas.',
      );
    } catch (err) {
      setMessage({ text: errorText(err, 'Não foi possível fazer as alterações.'), tone: 'error' });
      await quote.refetch();
    }
  };

  if (!open)
    return (
      <div className="mt-4">
        <button
          type="button"
          className={secondaryButtonClass}
          aria-expanded={false}
          onClick={() => setOpen(true)}
        >
          Alterar distância e camisa
        </button>
        <FormStatus message={message?.text ?? null} tone={message?.tone ?? 'success'} />
      </div>
    );

  return (
    <section aria-label="Alterar distância e camisa" className="mt-4">
      <h3 className="font-semibold">Alterar distância e camisa</h3>
      <p className="text-sm">Escolha o que quiser mudar: tudo é conferido e confirmado de uma vez.</p>
      {days.map((d) => {
        const from = d.categorias.find((c) => props.current.includes(c.id))!;
        const label = several ? `Nova distância do dia ${formatIsoDateBR(d.data)}` : 'Nova distância';
        return (
          <div key={d.data} className="mt-2 flex flex-col gap-1">
            <label htmlFor={`${formId}-${d.data}`} className="text-sm font-medium">
              {label}
            </label>
            <select
              id={`${formId}-${d.data}`}
              className={inputClass}
              value={distances[d.data] ?? ''}
              disabled={paying}
              onChange={(e) => {
                setDistances({ ...distances, [d.data]: e.target.value });
                setMessage(null);
              }}
            >
              <option value="">Manter {from.nome_categoria}</option>
              {d.categorias
                .filter((c) => c.id !== from.id)
                .map((c) => (
                  <option key={c.id} value={c.id} disabled={c.quantidade_disponivel <= 0}>
                    {c.quantidade_disponivel <= 0 ? `${c.nome_categoria} — Esgotado` : c.nome_categoria}
                  </option>
                ))}
            </select>
          </div>
        );
      })}
      {sizes.length > 0 ? (
        <div className="mt-2 flex flex-col gap-1">
          <label htmlFor={`${formId}-size`} className="text-sm font-medium">
            Novo tamanho da camisa
          </label>
          <select
            id={`${formId}-size`}
            className={inputClass}
            value={size}
            disabled={paying}
            onChange={(e) => {
              setSize(e.target.value);
              setMessage(null);
            }}
          >
            <option value="">Manter {props.currentSize ?? 'o tamanho atual'}</option>
            {sizes.map((s) => (
              <option key={s.id} value={s.id} disabled={s.quantidade_disponivel <= 0}>
                {s.quantidade_disponivel <= 0 ? `${s.tamanho} — Esgotado` : s.tamanho}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      {operacoes.length > 0 && quote.isPending ? <p role="status">Calculando...</p> : null}
      {operacoes.length > 0 && quote.isError ? (
        <p role="alert">{errorText(quote.error, 'Não foi possível calcular.')}</p>
      ) : null}
      {q ? (
        q.permitido ? (
          <div className="mt-2">
            <ChangeQuoteFigures quote={q} />
            {q.a_pagar === 0 ? (
              <button
                type="button"
                className={`${secondaryButtonClass} mt-2`}
                disabled={apply.isPending}
                onClick={() => void confirm()}
              >
                Confirmar alterações
              </button>
            ) : !token ? (
              <SignInToPay amount={q.a_pagar} />
            ) : paying ? (
              <div className="mt-2">
                <PixPanel
                  finalidade="inscricao"
                  draft={{ alteracoes: { ...props.pays, operacoes } }}
                  totalCents={reaisToCents(q.a_pagar)}
                  descricao="Alterações da inscrição"
                  onPaid={() => void done('Alterações feitas: o pagamento foi confirmado.', true)}
                  onError={(text) => setMessage({ text, tone: 'error' })}
                />
              </div>
            ) : (
              <button
                type="button"
                className={`${secondaryButtonClass} mt-2`}
                onClick={() => setPaying(true)}
              >
                Pagar {formatReais(q.a_pagar)} com Pix e confirmar
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
        onClick={() => {
          reset();
          setOpen(false);
        }}
      >
        Fechar
      </button>
    </section>
  );
}
