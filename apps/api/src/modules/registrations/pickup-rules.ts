import { delegationRefusal } from '@passada/core/after-sale';
import type { PickupDelegate, PickupItem } from '@passada/core/contracts/painel';
import { maskCpfButCheckDigits } from '@passada/core/documents';
import { eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { registrations } from '../../db/schema/index.ts';
import { findRules } from './after-sale.repository.ts';

/**
 * Pickup by someone else, without paper (docs/decisions/0063, later): the runner names one person (name
 * and CPF, personal data of this registration, never logged) and the desk hands the kit to them against
 * that CPF's document, when the event's rules let this registration be collected so. What the desk
 * decides with the event's rules; the runner's side is pickup-delegation.ts.
 */

type Conn = Db | Tx;

/** What the desk needs of the event's rules: delegation and the item to bring. */
export interface PickupRules {
  delegationAllowed: boolean;
  delegationRefusedSeniorHalf: boolean;
  item: PickupItem | null;
}

export async function pickupRules(db: Conn, eventId: number): Promise<PickupRules> {
  const { rules } = await findRules(db, eventId);
  return {
    delegationAllowed: rules.delegationAllowed,
    delegationRefusedSeniorHalf: rules.delegationRefusedSeniorHalf,
    item: rules.pickupItem
      ? { texto: rules.pickupItem, unidade: rules.pickupItemUnit, exigido: rules.pickupItemRequired }
      : null,
  };
}

/**
 * The authorised person as the desk shows them (CPF but its check digits masked), or null when there is
 * none or the event's rules no longer let this registration be collected by someone else.
 */
export function deskDelegate(
  row: { pickupDelegateName: string | null; pickupDelegateCpf: string | null; seniorDiscount: boolean },
  rules: PickupRules,
): PickupDelegate | null {
  if (!row.pickupDelegateName || !row.pickupDelegateCpf) return null;
  if (delegationRefusal(rules, row.seniorDiscount)) return null;
  return { nome: row.pickupDelegateName, cpf: maskCpfButCheckDigits(row.pickupDelegateCpf) };
}

/** What the desk records of who collected a kit, checked against the registration and the rules. */
export interface Collector {
  collectedBy: 'titular' | 'autorizado';
  collectorName: string | null;
  itemQuantity: number | null;
}

/**
 * Who collects the kit and what they brought, decided under the caller's row lock: the authorised
 * person only when there is one the rules allow; the item refuses a kit only when the organiser ticked
 * "exigir o item". Answers the refusal's message, or the collector.
 */
export async function collectorFor(
  tx: Tx,
  registrationId: number,
  asked: { retirou: 'titular' | 'autorizado'; itemQuantity: number | null },
): Promise<{ refused: { code: string; message: string } } | { collector: Collector }> {
  const [row] = await tx
    .select({
      eventId: registrations.eventId,
      pickupDelegateName: registrations.pickupDelegateName,
      pickupDelegateCpf: registrations.pickupDelegateCpf,
      seniorDiscount: registrations.seniorDiscount,
    })
    .from(registrations)
    .where(eq(registrations.id, registrationId));
  if (!row) return { refused: { code: 'nao_encontrada', message: 'Inscrição não encontrada.' } };
  const rules = await pickupRules(tx, row.eventId);
  const delegate = deskDelegate(row, rules);
  if (asked.retirou === 'autorizado' && !delegate)
    return {
      refused: {
        code: 'retirada_nao_autorizada',
        message: 'Não há retirada autorizada para outra pessoa nesta inscrição: o kit sai só para o titular.',
      },
    };
  const quantity = asked.itemQuantity && asked.itemQuantity > 0 ? asked.itemQuantity : null;
  if (rules.item?.exigido && quantity === null)
    return {
      refused: {
        code: 'item_obrigatorio',
        message: `O organizador exige o item na retirada: ${rules.item.texto}.`,
      },
    };
  return {
    collector: {
      collectedBy: asked.retirou,
      collectorName: asked.retirou === 'autorizado' ? delegate!.nome : null,
      itemQuantity: rules.item ? quantity : null,
    },
  };
}
