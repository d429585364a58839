import type { CheckinPreview } from '@passada/core/contracts/painel';
import type { FormEvent } from 'react';
import {
  primaryButtonClass,
  secondaryButtonClass,
  TextAreaField,
} from '../../../../components/form-field.tsx';
import { formatDateTime } from '../../../../lib/format.ts';
import { type PickupAnswer, usePickupChoice } from './pickup-choice.tsx';
import { SpecialPriceNote } from './special-price-note.tsx';

/**
 * Who the scanned or found registration is, and the one action its state allows: confirm the kit,
 * undo a pickup with a reason, or nothing for a cancelled registration (docs/decisions/0026).
 */
export function PreviewCard(props: {
  preview: CheckinPreview;
  busy: boolean;
  reason: string;
  onReason(value: string): void;
  onConfirm(answer: PickupAnswer): void;
  onUndo(event: FormEvent): void;
  onClose(): void;
}) {
  const { participante: p, situacao } = props.preview;
  const choice = usePickupChoice(p.retirada_autorizada, props.preview.item);
  const collector =
    p.retirada?.retirado_por === 'autorizado' || p.retirada?.retirado_por === 'equipe'
      ? ` (retirado por ${p.retirada.retirado_por_nome}${p.retirada.retirado_por === 'equipe' ? ', com os kits da equipe' : ''})`
      : '';
  return (
    <section
      aria-labelledby="checkin-preview-name"
      className="mb-4 rounded-lg border-2 border-stone-400 p-4 dark:border-stone-600"
    >
      <h2 id="checkin-preview-name" className="text-xl font-bold">
        {p.nome_completo}
      </h2>
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
        <dt className="font-medium">Inscrição</dt>
        <dd>nº {p.id}</dd>
        <dt className="font-medium">Evento</dt>
        <dd>{props.preview.evento.nome}</dd>
        <dt className="font-medium">Categoria</dt>
        <dd>{p.categorias.map((c) => c.nome).join(', ')}</dd>
        <dt className="font-medium">Camisa</dt>
        <dd data-testid="checkin-size">{p.tamanho_camisa ?? 'sem camisa no kit'}</dd>
        <dt className="font-medium">CPF</dt>
        <dd>{p.cpf}</dd>
        {p.equipe ? (
          <>
            <dt className="font-medium">Equipe</dt>
            <dd>{p.equipe}</dd>
          </>
        ) : null}
      </dl>
      {props.preview.preco_especial ? <SpecialPriceNote special={props.preview.preco_especial} /> : null}
      {props.preview.confira_documento && p.meia_entrada ? (
        <p className="mt-3 rounded bg-amber-100 p-2 font-semibold text-amber-900 dark:bg-amber-950 dark:text-amber-100">
          Confira um documento com foto: inscrição com meia-entrada 60+ (Estatuto do Idoso).
        </p>
      ) : null}
      {props.preview.confira_cpf ? (
        <p className="mt-3 rounded bg-amber-100 p-2 font-semibold text-amber-900 dark:bg-amber-950 dark:text-amber-100">
          Vaga de sorteio: entregue o kit só a quem mostrar um documento com foto deste CPF ({p.cpf}). A vaga
          é da pessoa do CPF, não de quem inscreveu ou pagou.
        </p>
      ) : null}
      {situacao === 'cancelada' ? (
        <p className="mt-3 font-semibold text-red-700 dark:text-red-400">
          Inscrição cancelada em {formatDateTime(p.cancelamento!.em)}: não entregue o kit.
        </p>
      ) : situacao === 'retirado' ? (
        <>
          <p className="mt-3 font-semibold text-amber-800 dark:text-amber-300">
            Kit já retirado em {formatDateTime(p.retirada!.at)} por {p.retirada!.staff_name}
            {collector}.
          </p>
          <form onSubmit={props.onUndo} className="mt-3 flex flex-col gap-2">
            <TextAreaField
              label="Motivo para desfazer a retirada"
              required
              minLength={3}
              maxLength={300}
              value={props.reason}
              onChange={(e) => props.onReason(e.target.value)}
            />
            <button type="submit" className={secondaryButtonClass} disabled={props.busy}>
              Desfazer retirada
            </button>
          </form>
        </>
      ) : (
        <>
          {choice.fields}
          <button
            type="button"
            className={`${primaryButtonClass} mt-3 w-full`}
            disabled={props.busy || !choice.ready}
            onClick={() => props.onConfirm(choice.answer)}
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
