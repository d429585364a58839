import type { PickupDelegate, PickupItem } from '@passada/core/contracts/painel';
import { useState } from 'react';
import { FormField } from '../../../../components/form-field.tsx';

/** What the volunteer records with a pickup: who collected it and how much of the item was brought. */
export interface PickupAnswer {
  retirou: 'titular' | 'autorizado';
  /** The authorised person's name as this desk shows it (the server flags a revoked one offline). */
  autorizado_nome?: string;
  item_quantidade: number | null;
}

/**
 * The person the runner authorised and the event's item to bring, asked before the kit goes out, online
 * and offline alike (docs/decisions/0063, later). A required item holds the button until it is counted.
 */
export function usePickupChoice(
  delegate: PickupDelegate | null | undefined,
  item: PickupItem | null | undefined,
) {
  const [retirou, setRetirou] = useState<PickupAnswer['retirou']>('titular');
  const [quantity, setQuantity] = useState('');
  const amount = Number(quantity.replace(',', '.'));
  const counted = quantity.trim() !== '' && Number.isFinite(amount) && amount > 0 ? amount : null;
  const answer: PickupAnswer = {
    retirou: delegate ? retirou : 'titular',
    ...(delegate && retirou === 'autorizado' ? { autorizado_nome: delegate.nome } : {}),
    item_quantidade: item ? counted : null,
  };
  const ready = !item?.exigido || counted !== null;
  const fields = (
    <>
      {delegate ? (
        <fieldset className="mt-3 rounded bg-sky-100 p-2 text-sky-950 dark:bg-sky-950 dark:text-sky-50">
          <legend className="sr-only">Quem está retirando o kit</legend>
          <p className="font-semibold">
            Retirada autorizada para {delegate.nome}, CPF {delegate.cpf}. Se for essa pessoa, confira um
            documento com foto desse CPF.
          </p>
          <label className="mt-1 flex items-center gap-2">
            <input
              type="radio"
              name="retirou"
              checked={retirou === 'titular'}
              onChange={() => setRetirou('titular')}
            />
            O próprio titular
          </label>
          <label className="flex items-center gap-2">
            <input
              type="radio"
              name="retirou"
              checked={retirou === 'autorizado'}
              onChange={() => setRetirou('autorizado')}
            />
            {delegate.nome} (autorizada)
          </label>
        </fieldset>
      ) : null}
      {item ? (
        <div className="mt-3">
          <p className="font-semibold">
            Trouxe o item? {item.texto}
            {item.exigido ? ' (obrigatório para retirar o kit)' : ' (não impede a retirada)'}
          </p>
          <FormField
            label={`Quantidade trazida${item.unidade ? ` (${item.unidade})` : ''}`}
            inputMode="decimal"
            autoComplete="off"
            value={quantity}
            onChange={(e) => setQuantity(e.target.value)}
          />
        </div>
      ) : null}
    </>
  );
  return { answer, ready, fields };
}
