import {
  HEALTH_DATA_PERMISSIONS,
  type PainelParticipant,
  PERSONAL_DATA_PERMISSIONS,
  staffCan,
} from '@passada/core/contracts/painel';
import { maskCpf, maskCpfButCheckDigits } from '@passada/core/documents';
import { centsToReais } from '@passada/core/money';
import { formatPhone } from '@passada/core/phone';
import type { FastifyRequest } from 'fastify';
import {
  type CheckinRow,
  type ParticipantRow,
  participantIdentity,
} from '../registrations/registrations-admin.ts';

/**
 * Whether the member may see the PCD answer (health data, LGPD art. 11): the event's organisers and the
 * kit desk, never orders alone (docs/decisions/0045).
 */
export const seesHealthData = (req: FastifyRequest) =>
  req.staff !== null && staffCan(req.staff.role, HEALTH_DATA_PERMISSIONS);

/** What of a participant the member's role sees: the PCD answer, and the whole personal data. */
export interface ParticipantView {
  health: boolean;
  personal: boolean;
}

/** The member's view: health data (HEALTH_DATA_PERMISSIONS), personal data (PERSONAL_DATA_PERMISSIONS). */
export const participantView = (req: FastifyRequest): ParticipantView => ({
  health: seesHealthData(req),
  personal: req.staff !== null && staffCan(req.staff.role, PERSONAL_DATA_PERMISSIONS),
});

/**
 * A registration as the back office lists it (participants, check-in, its own page): `pcd` null unless
 * `view.health`; without `view.personal`, the CPF masked and no birth date, e-mail, phone nor
 * emergency contact.
 */
export function participantWire(
  row: ParticipantRow,
  checkin: CheckinRow | undefined,
  view: ParticipantView,
): PainelParticipant {
  const identity = participantIdentity(row);
  const health = view.health;
  return {
    ...(view.personal
      ? identity
      : {
          ...identity,
          cpf: maskCpf(row.cpf),
          data_nascimento: null,
          email: null,
          numero_contato: null,
        }),
    cidade: row.city,
    estado: row.state,
    categorias: row.categories.map((c) => ({
      id: c.id,
      nome: c.name,
      dia: c.day,
      numero_peito: c.bib,
      onda: c.wave,
    })),
    total: centsToReais(row.totalCents),
    criado_em: row.createdAt.toISOString(),
    retirada: checkin
      ? {
          at: checkin.at.toISOString(),
          staff_name: checkin.staffName,
          retirado_por: checkin.collectedBy,
          retirado_por_nome: checkin.collectorName,
          item_quantidade: checkin.itemQuantity,
        }
      : null,
    faixa_etaria: row.ageGroup,
    meia_entrada: row.seniorDiscount,
    tamanho_camisa: row.kitSize,
    equipe: row.team,
    vaga_de_equipe: row.teamPlace,
    pcd: health ? row.pcd : null,
    contato_emergencia:
      view.personal && row.emergencyName && row.emergencyPhone
        ? { nome: row.emergencyName, telefone: formatPhone(row.emergencyPhone) }
        : null,
    pedido_id: row.orderId,
    cancelamento: row.cancelledAt ? { em: row.cancelledAt.toISOString(), motivo: row.cancelReason } : null,
    retirada_autorizada:
      row.pickupDelegateName && row.pickupDelegateCpf
        ? { nome: row.pickupDelegateName, cpf: maskCpfButCheckDigits(row.pickupDelegateCpf) }
        : null,
  };
}
