import type { RegistrationOperationWire } from '@passada/core/contracts/after-sale';
import { conflict } from '../../plugins/errors.ts';

/** A change the list applies itself (a transfer or a cancellation is handed to its own steps). */
export type ChangeOp = Extract<RegistrationOperationWire, { tipo: 'distancia' | 'camiseta' }>;
export type TransferOp = Extract<RegistrationOperationWire, { tipo: 'transferencia' }>;
export type CancelOp = Extract<RegistrationOperationWire, { tipo: 'cancelamento' }>;

/**
 * The list's shape (docs/decisions/0056, later): a cancellation is the only operation of its list
 * (nothing after it would apply to a cancelled registration, nothing before it would be worth doing);
 * at most one transfer, applied after the other changes, which must have nothing to pay (the new runner
 * pays the transfer, and a registration being handed over is not paid for by two people at once).
 */
export function splitList(ops: readonly RegistrationOperationWire[]) {
  const cancel = ops.find((op): op is CancelOp => op.tipo === 'cancelamento');
  if (cancel && ops.length > 1)
    throw conflict(
      'O cancelamento deve ser a única alteração do pedido: as outras não valeriam para uma inscrição cancelada.',
      'cancelamento_sozinho',
    );
  const transfers = ops.filter((op): op is TransferOp => op.tipo === 'transferencia');
  if (transfers.length > 1)
    throw conflict('Só é possível pedir uma transferência de cada vez.', 'alteracao_repetida');
  const changes = ops.filter((op): op is ChangeOp => op.tipo === 'distancia' || op.tipo === 'camiseta');
  return { cancel, transfer: transfers[0], changes };
}

export const TRANSFER_WITH_PAYMENT =
  'Estas alterações têm valor a pagar: pague-as antes e peça a transferência depois, em outro pedido.';

/**
 * One distance per day and one shirt per list: a change of a change (the same category left twice,
 * or a category the list entered left again) is made in a new list.
 */
export function checkShape(
  operations: readonly RegistrationOperationWire[],
  moves: { from: number; to: number }[],
) {
  const shirts = operations.filter((op) => op.tipo === 'camiseta').length;
  if (shirts > 1)
    throw conflict(
      'A camisa só pode ser trocada uma vez em cada pedido de alterações.',
      'alteracao_repetida',
    );
  const again = moves.some((m, i) =>
    moves.slice(0, i).some((before) => before.from === m.from || before.to === m.from),
  );
  if (again)
    throw conflict(
      'A distância de um mesmo dia só pode ser trocada uma vez em cada pedido de alterações.',
      'alteracao_repetida',
    );
}
