import type { Staff, StaffRole } from '@passada/core/contracts/painel';
import type { Db, Tx } from '../../db/client.ts';
import { badRequest, conflict, notFound } from '../../plugins/errors.ts';
import { hashPassword } from '../../plugins/passwords.ts';
import { audit } from './audit.ts';
import * as repo from './staff.repository.ts';
import { existingEventIds } from './staff-events.read-model.ts';
import {
  eventScoped,
  loginKey,
  refuseCommonPassword,
  type StaffServiceDeps,
  toStaffWire,
  withEvents,
} from './staff-wire.ts';

/**
 * The admin's side: members created, changed, their password and two-step sign-in reset, the events a
 * check-in volunteer may work, and the audit log read (docs/decisions/0023, 0032).
 */
export function createStaffMembers(deps: StaffServiceDeps) {
  const { db } = deps;

  /** An admin acts on someone else; their own password and 2FA go through the checked paths above. */
  async function otherMember(admin: repo.StaffRow, id: number) {
    if (admin.id === id) {
      throw conflict('Para a sua própria conta, use a página Segurança.', 'propria_conta');
    }
    const target = await repo.findStaffById(db, id);
    if (!target) throw notFound('Conta da equipe não encontrada.');
    return target;
  }

  /** Admin: a new password for someone else; their sessions end and their sign-in lock lifts. */
  async function resetPassword(admin: repo.StaffRow, id: number, password: string) {
    const target = await otherMember(admin, id);
    refuseCommonPassword(password, 'password');
    const passwordHash = await hashPassword(password);
    await db.transaction(async (tx) => {
      await repo.updateStaff(tx, id, { passwordHash });
      await repo.revokeAllSessions(tx, id, deps.now());
      await repo.clearAttempts(tx, loginKey(target.email));
      await audit(tx, admin, {
        action: 'senha_redefinida',
        entity: 'equipe',
        entityId: id,
        after: toStaffWire(target),
      });
    });
    return toStaffWire(target);
  }

  /** Admin: turns someone's two-step sign-in off (lost phone), so they set it up again; sessions end. */
  async function resetTotp(admin: repo.StaffRow, id: number) {
    const target = await otherMember(admin, id);
    if (!target.totpEnabled && !target.totpSecret) {
      throw conflict('A verificação em duas etapas desta conta não está ativa.', '2fa_inativo');
    }
    return db.transaction(async (tx) => {
      const after = (await repo.updateStaff(tx, id, {
        totpEnabled: false,
        totpSecret: null,
        totpLastStep: null,
      }))!;
      await repo.deleteRecoveryCodes(tx, id);
      await repo.revokeAllSessions(tx, id, deps.now());
      await audit(tx, admin, {
        action: '2fa_redefinido',
        entity: 'equipe',
        entityId: id,
        before: toStaffWire(target),
        after: toStaffWire(after),
      });
      return toStaffWire(after);
    });
  }

  /**
   * The events a member may check in: null for every event (roles that are not event-scoped), else
   * the ones assigned in `staff_events` (docs/decisions/0032).
   */
  async function checkinEventsOf(row: repo.StaffRow): Promise<number[] | null> {
    if (!eventScoped(row.role)) return null;
    return (await repo.staffEventIds(db, [row.id])).get(row.id) ?? [];
  }

  /**
   * Only check-in volunteers have events assigned; the events must exist. Another role's assignments are
   * dropped when it changes role, so a later change back starts from none.
   */
  async function assignEvents(tx: Db | Tx, staffId: number, role: StaffRole, eventIds: number[] | undefined) {
    if (!eventScoped(role)) {
      if (eventIds?.length) {
        const message = 'Só voluntários do check-in têm eventos designados.';
        throw badRequest(message, 'validation_error', { eventos: message });
      }
      await repo.replaceStaffEvents(tx, staffId, []);
      return;
    }
    if (eventIds === undefined) return;
    const found = await existingEventIds(tx, eventIds);
    if (found.length !== eventIds.length) {
      const message = 'Evento não encontrado: escolha entre os eventos da lista.';
      throw badRequest(message, 'validation_error', { eventos: message });
    }
    await repo.replaceStaffEvents(tx, staffId, eventIds);
  }

  /** In the caller's transaction when given (the back office's audit line commits with it). */
  async function createStaff(
    input: { email: string; name: string; role: StaffRole; password: string; eventos?: number[] | undefined },
    conn: Db | Tx = db,
  ): Promise<Staff> {
    refuseCommonPassword(input.password, 'password');
    const created = await repo.insertStaff(conn, {
      email: input.email.trim(),
      name: input.name.trim(),
      role: input.role,
      passwordHash: await hashPassword(input.password),
    });
    if (!created) {
      throw badRequest('Já existe uma conta da equipe com este e-mail.', 'validation_error', {
        email: 'Já existe uma conta da equipe com este e-mail.',
      });
    }
    await assignEvents(conn, created.id, created.role, input.eventos);
    return withEvents(conn, created);
  }

  /**
   * Role, active flag and a volunteer's events; the last active admin can be neither demoted nor
   * deactivated. Answers the member before and after, on the wire.
   */
  async function updateStaff(
    id: number,
    patch: { role?: StaffRole | undefined; active?: boolean | undefined; eventos?: number[] | undefined },
    outer?: Tx,
  ) {
    if (patch.role === undefined && patch.active === undefined && patch.eventos === undefined) {
      throw badRequest(
        'Nada para alterar: informe o perfil, os eventos ou se a conta está ativa.',
        'nada_para_alterar',
      );
    }
    const inTransaction = <T>(work: (tx: Tx) => Promise<T>) => (outer ? work(outer) : db.transaction(work));
    return inTransaction(async (tx) => {
      const before = await repo.findStaffById(tx, id);
      if (!before) throw notFound('Conta da equipe não encontrada.');
      const beforeWire = await withEvents(tx, before);
      const columns = {
        ...(patch.role === undefined ? {} : { role: patch.role }),
        ...(patch.active === undefined ? {} : { active: patch.active }),
      };
      const after = Object.keys(columns).length ? (await repo.updateStaff(tx, id, columns))! : before;
      if ((await repo.countAdmins(tx)) === 0) {
        throw conflict('A loja precisa de pelo menos um administrador ativo.', 'ultimo_admin');
      }
      await assignEvents(tx, id, after.role, patch.eventos);
      if (patch.active === false) await repo.revokeAllSessions(tx, id, deps.now());
      return { before: beforeWire, after: await withEvents(tx, after) };
    });
  }

  return {
    resetPassword,
    resetTotp,
    createStaff,
    updateStaff,
    checkinEventsOf,
    async listStaff(): Promise<Staff[]> {
      const [rows, events] = await Promise.all([repo.listStaff(db), repo.staffEventIds(db)]);
      return rows.map((r) => toStaffWire(r, events.get(r.id) ?? []));
    },
    listAudit: (filters: repo.AuditFilters, page: { limit: number; offset: number }) =>
      repo.listAudit(db, filters, page),
  };
}
