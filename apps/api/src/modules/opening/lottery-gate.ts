import type { Tx } from '../../db/client.ts';
import { conflict } from '../../plugins/errors.ts';
import type { EventRow, OpeningGateWho } from '../events/events.service.ts';
import * as repo from './lottery.repository.ts';
import type { LotteryServiceDeps } from './lottery-context.ts';
import { lockLimits } from './opening.repository.ts';

/** The registrations' rule while an event's lottery is on, installed through the opening's gate. */
export function createLotteryGate(deps: Pick<LotteryServiceDeps, 'now' | 'registrations'>) {
  /**
   * The registrations' rule while the lottery is on: only a CPF drawn (through any account's entry),
   * within the deadline, in the category drawn, one registration (paid or being paid) for the CPF, and
   * the opening's registrations per buyer counted over what the account holds, pays for and has in the
   * same cart. Counted under the buyer's and the CPF's locks and the CPF's entries' row locks, so two
   * payments for the same winner, or two tabs of one buyer, are serialised.
   */
  async function gate(tx: Tx, event: EventRow, who: OpeningGateWho, perBuyer: number): Promise<void> {
    const lottery = await repo.findLottery(tx, event.id);
    if (!lottery || lottery.draws === 0)
      throw conflict(
        'As inscrições deste evento são por sorteio: inscreva-se no sorteio na página do evento.',
        'inscricao_por_sorteio',
      );
    await lockLimits(tx, event.id, who);
    // A team's quota is the organiser's gift of places, not the draw's (docs/decisions/0076): from the
    // first draw on, its members register without being drawn, one per CPF, within the buyer's limit.
    if (!who.quota) await drawnPlace(tx, event, who);
    const taken = await deps.registrations.countForCpf(tx, event.id, who.cpf, who.handover?.registrationId);
    if (taken >= 1)
      throw conflict(
        'Este CPF já tem a inscrição sorteada (paga ou em pagamento) neste evento.',
        'limite_por_cpf',
      );
    const byBuyer =
      (await deps.registrations.countForBuyer(tx, event.id, who.userId)) + (who.inSameCharge ?? 0);
    if (byBuyer >= perBuyer)
      throw conflict(
        `Esta conta já fez ${perBuyer} ${perBuyer === 1 ? 'inscrição' : 'inscrições'} (pagas ou em pagamento) neste evento, o limite por comprador.`,
        'limite_por_comprador',
      );
  }

  /** The CPF was drawn in this category and its deadline to pay has not passed (a late payment's had not). */
  async function drawnPlace(tx: Tx, event: EventRow, who: OpeningGateWho): Promise<void> {
    const entries = await repo.lockEntriesOfCpf(tx, event.id, who.cpf);
    const now = deps.now();
    const won = entries.filter((e) => e.wonInDraw !== null);
    const entry = won.find((e) => e.payBy && e.payBy > now) ?? won.at(-1);
    if (!entry)
      throw conflict(
        'Este CPF não foi sorteado neste evento; se houver novos sorteios, avisaremos por e-mail.',
        'nao_sorteado',
      );
    // A late payment's charge was made within the deadline: the one-per-CPF and per-buyer still count.
    if (!who.late && (!entry.payBy || entry.payBy <= now))
      throw conflict('O prazo para pagar a vaga sorteada terminou.', 'prazo_do_sorteio_encerrado');
    if (who.categoryIds && (who.categoryIds.length !== 1 || who.categoryIds[0] !== entry.categoryId))
      throw conflict(
        `A vaga sorteada é na categoria ${await repo.categoryName(tx, entry.categoryId)}.`,
        'categoria_do_sorteio',
      );
  }

  return gate;
}
