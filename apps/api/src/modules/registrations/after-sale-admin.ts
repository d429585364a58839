import { afterSaleRulesText } from '@passada/core/after-sale';
import {
  type AfterSaleSave,
  type PainelAfterSale,
  rulesFromWire,
  rulesToWire,
} from '@passada/core/contracts/after-sale';
import { STALE_VERSION_CODE } from '@passada/core/contracts/painel';
import type { Db, Tx } from '../../db/client.ts';
import { badRequest, conflict, notFound } from '../../plugins/errors.ts';
import type { EventsService } from '../events/events.service.ts';
import * as repo from './after-sale.repository.ts';

/** What a save from a form opened before someone else's save gets (409 `versao_desatualizada`). */
export const STALE_RULES =
  'As regras de pós-venda deste evento foram alteradas por outra pessoa depois que você abriu a página. Recarregue para ver a versão atual; suas alterações não foram salvas.';

export interface AfterSaleAdminDeps {
  db: Db;
  events: Pick<EventsService, 'findEventRow' | 'findCategories'>;
}

/**
 * The back office's side of the after-sale rules (docs/decisions/0035-runner-after-sale.md): read
 * with their version, saved only from that version.
 */
export function createAfterSaleAdmin(deps: AfterSaleAdminDeps) {
  async function rules(eventId: number, db: Db | Tx = deps.db): Promise<PainelAfterSale> {
    const event = await deps.events.findEventRow(eventId, db);
    if (!event) throw notFound('Evento não encontrado.');
    const found = await repo.findRules(db, eventId);
    const waitlisted = await deps.events.findCategories(found.rules.waitlistCategoryIds, db);
    return {
      ...rulesToWire(found.rules),
      versao: found.version,
      texto: afterSaleRulesText(
        found.rules,
        event.registrationDeadline,
        waitlisted.map((c) => c.name),
      ),
    };
  }

  /** Saves the rules read at `versao`; answers what they were, for the audit line. */
  async function save(tx: Tx, eventId: number, input: AfterSaleSave): Promise<PainelAfterSale> {
    const before = await rules(eventId, tx);
    const { versao, ...wire } = input;
    // The waitlist's categories must be this event's (docs/decisions/0042-waitlist.md).
    const categories = await deps.events.findCategories(wire.lista_espera_categorias, tx);
    if (
      categories.length !== wire.lista_espera_categorias.length ||
      categories.some((c) => c.eventId !== eventId)
    )
      throw badRequest('Escolha categorias deste evento para a lista de espera.', 'validation_error', {
        lista_espera_categorias: 'Escolha categorias deste evento para a lista de espera.',
      });
    const saved = await repo.saveRules(tx, eventId, rulesFromWire(wire), versao);
    if (saved === null) throw conflict(STALE_RULES, STALE_VERSION_CODE);
    return before;
  }

  /** Each registration's history of changes, in Portuguese (back office page, participants CSV). */
  const history = (registrationIds: number[], db: Db | Tx = deps.db) => repo.historyOf(db, registrationIds);

  return { rules, save, history };
}

export type AfterSaleAdmin = ReturnType<typeof createAfterSaleAdmin>;
