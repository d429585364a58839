import type { ReferralStatus, RegistrationLookup } from '@passada/core/contracts/registrations';
import { ageGroup } from '@passada/core/events';
import { centsToReais } from '@passada/core/money';
import { formatPhone } from '@passada/core/phone';
import type { EventRow } from '../events/events.service.ts';
import type * as repo from './registrations.repository.ts';

/** A registration as its card, the lookup by CPF and "Minha conta" show it (RegistrationLookupSchema). */
export function lookupWire(
  row: repo.RegistrationRow & { eventName: string },
  parts: {
    categories: Array<{ id: number; name: string; waveId: number | null }>;
    /** Start waves' names by id (docs/decisions/0066). */
    waves: Map<number, string>;
    event: EventRow | undefined;
    history: string[] | undefined;
    /** What changes of distance added to the price paid, or took off it (`afterSaleOf`). */
    paidDifferenceCents: number;
    qrCode: string | null;
    /** Its special price's proof stands refused (price-rule-proofs.ts `statusOf`). */
    proofRefused?: boolean;
    /** Its referral link (referrals.ts `statusOf`), in the account's list only. */
    referral?: ReferralStatus | undefined;
  },
): RegistrationLookup {
  const { categories, event, history, qrCode } = parts;
  return {
    ...(parts.proofRefused ? { comprovante_recusado: true as const } : {}),
    // What changed after the sale, only when something did (docs/decisions/0041).
    ...(history ? { historico: history } : {}),
    id: row.id,
    nome_completo: row.fullName,
    email: row.email,
    numero_contato: formatPhone(row.phone),
    evento_detalhes: {
      id: row.eventId,
      nome_evento: row.eventName,
      ...(event ? { data: event.startDate } : {}),
    },
    categoria_evento_detalhes: categories.map((c) => ({
      id: c.id,
      nome_categoria: c.name,
      // Only on a race with start waves (docs/decisions/0066).
      ...(c.waveId === null ? {} : { onda: parts.waves.get(c.waveId) ?? null }),
    })),
    endereco: row.address,
    tamanho_camisa: row.kitSize,
    equipe: row.team,
    faixa_etaria: ageGroup(row.birthDate, event?.startDate ?? row.birthDate),
    meia_entrada: row.seniorDiscount,
    pcd: row.pcd,
    kit_local_retirada: event?.kitPickupPlace ?? '',
    kit_horarios_retirada: event?.kitPickupHours ?? '',
    ...(qrCode ? { qr_code: qrCode } : {}),
    cancelada_em: row.cancelledAt?.toISOString() ?? null,
    // The price paid with its changes of distance: the card's "Valor" after a dearer or cheaper one.
    total: centsToReais(row.totalCents + parts.paidDifferenceCents),
    ...(row.couponCode ? { cupom: row.couponCode, desconto: centsToReais(row.discountCents) } : {}),
    ...(parts.referral ? { indicacao: parts.referral } : {}),
  };
}
