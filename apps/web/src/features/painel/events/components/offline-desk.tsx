import type { OfflineDecision } from '@passada/core/checkin-offline';
import type { PickupItem } from '@passada/core/contracts/painel';
import type { DeskTicket } from '@passada/core/contracts/painel-checkin-desk';
import { FormField, primaryButtonClass, secondaryButtonClass } from '../../../../components/form-field.tsx';
import { formatDateTime } from '../../../../lib/format.ts';
import type { useOfflineDesk } from '../offline/use-offline-desk.ts';
import { raceLabel } from '../utils/race-label.ts';
import { type PickupAnswer, usePickupChoice } from './pickup-choice.tsx';
import { SpecialPriceNote } from './special-price-note.tsx';

type Desk = ReturnType<typeof useOfflineDesk>;

const ago = (minutes: number) =>
  minutes < 1 ? 'atualizada há menos de 1 min' : `atualizada há ${minutes} min`;
const waiting = (n: number) =>
  n === 0
    ? 'Nenhuma retirada aguardando envio'
    : n === 1
      ? '1 retirada aguardando envio'
      : `${n} retiradas aguardando envio`;
const pickupText = (p: { em: string; por: string; mesa: string | null }) =>
  `${formatDateTime(p.em)} por ${p.por}${p.mesa ? ` (${p.mesa})` : ''}`;

/**
 * The desk's state without the network (docs/decisions/0063): its name, the local copy's age, what
 * waits to be sent, and the conflicts the server reported (a kit another desk had handed out first).
 */
export function DeskStatus({ desk }: { desk: Desk }) {
  return (
    <section
      aria-label="Check-in sem rede"
      className="mb-4 rounded-lg border border-stone-300 p-3 text-sm dark:border-stone-700"
    >
      <p className="font-semibold">
        {desk.online ? 'Com rede' : 'Sem rede: as leituras são decididas pela cópia local'}
      </p>
      <p>
        {desk.snapshot
          ? `Cópia local: ${desk.snapshot.inscricoes.length} inscrições, ${ago(desk.ageMinutes ?? 0)}.`
          : 'Sem cópia local ainda: abra esta tela com rede uma vez.'}{' '}
        <span>{waiting(desk.queue.length)}.</span>
      </p>
      <div className="mt-2 max-w-xs">
        <FormField
          label="Nome desta mesa"
          autoComplete="off"
          maxLength={40}
          placeholder="Mesa 1"
          value={desk.deskName}
          onChange={(e) => desk.setDeskName(e.target.value)}
        />
      </div>
      {desk.conflicts.length ? (
        <div className="mt-3">
          <h2 className="font-semibold text-red-800 dark:text-red-300">Conflitos de retirada</h2>
          <ul className="mt-1 flex flex-col gap-2">
            {desk.conflicts.map((c) => (
              <li
                key={c.id}
                className="rounded bg-red-100 p-2 text-red-900 dark:bg-red-950 dark:text-red-100"
              >
                <p>
                  {c.nome} (nº {c.inscricao}): esta mesa entregou em {formatDateTime(c.lida_em)}, mas{' '}
                  {c.retirada ? `o kit já tinha sido retirado em ${pickupText(c.retirada)}.` : c.mensagem}
                </p>
                <button
                  type="button"
                  className={`${secondaryButtonClass} mt-1`}
                  onClick={() => void desk.dismissConflict(c.id)}
                >
                  Resolvido
                </button>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}

/** A registration as the local copy shows it, and the one action it allows offline. */
export function OfflinePreviewCard(props: {
  decision: Exclude<OfflineDecision, { kind: 'recusado' }>;
  lottery: boolean;
  item: PickupItem | null | undefined;
  onConfirm(ticket: DeskTicket, answer: PickupAnswer): void;
  onClose(): void;
}) {
  const t = props.decision.ticket;
  const choice = usePickupChoice(t.retirada_autorizada, props.item);
  return (
    <section
      aria-labelledby="checkin-offline-name"
      className="mb-4 rounded-lg border-2 border-stone-400 p-4 dark:border-stone-600"
    >
      <h2 id="checkin-offline-name" className="text-xl font-bold">
        {t.nome}
      </h2>
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
        <dt className="font-medium">Inscrição</dt>
        <dd>nº {t.id}</dd>
        <dt className="font-medium">Categoria</dt>
        <dd>{t.categorias.map(raceLabel).join(', ')}</dd>
        <dt className="font-medium">Camisa</dt>
        <dd>{t.tamanho_camisa ?? 'sem camisa no kit'}</dd>
        <dt className="font-medium">CPF</dt>
        <dd>{t.cpf}</dd>
        {t.equipe ? (
          <>
            <dt className="font-medium">Equipe</dt>
            <dd>{t.equipe}</dd>
          </>
        ) : null}
      </dl>
      {t.preco_especial ? <SpecialPriceNote special={t.preco_especial} /> : null}
      {t.confira_documento && !t.preco_especial ? (
        <p className="mt-3 rounded bg-amber-100 p-2 font-semibold text-amber-900 dark:bg-amber-950 dark:text-amber-100">
          Confira um documento com foto: inscrição com meia-entrada 60+ (Estatuto do Idoso).
        </p>
      ) : null}
      {props.lottery ? (
        <p className="mt-3 rounded bg-amber-100 p-2 font-semibold text-amber-900 dark:bg-amber-950 dark:text-amber-100">
          Vaga de sorteio: entregue o kit só a quem mostrar um documento com foto deste CPF.
        </p>
      ) : null}
      {props.decision.kind === 'cancelada' ? (
        <p className="mt-3 font-semibold text-red-700 dark:text-red-400">
          Inscrição cancelada: não entregue o kit.
        </p>
      ) : props.decision.kind === 'retirado' ? (
        <p className="mt-3 font-semibold text-amber-800 dark:text-amber-300">
          Kit já retirado em {pickupText(props.decision.retirada)}.
        </p>
      ) : (
        <>
          {choice.fields}
          <button
            type="button"
            className={`${primaryButtonClass} mt-3 w-full`}
            disabled={!choice.ready}
            onClick={() => props.onConfirm(t, choice.answer)}
          >
            Confirmar entrega do kit
          </button>
        </>
      )}
      <button type="button" className={`${secondaryButtonClass} mt-2 w-full`} onClick={props.onClose}>
        Fechar
      </button>
    </section>
  );
}
