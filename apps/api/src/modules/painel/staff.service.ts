import { randomBytes } from 'node:crypto';
import type { Staff, StaffRole } from '@passada/core/contracts/painel';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import type { Env } from '../../config/env.ts';
import type { Db } from '../../db/client.ts';
import { hashToken } from '../../plugins/auth.ts';
import { badRequest, conflict, HttpError, notFound, unauthorized } from '../../plugins/errors.ts';
import {
  COMMON_PASSWORD_MESSAGE,
  hashPassword,
  isCommonPassword,
  verifyAgainstDummy,
  verifyPassword,
} from '../accounts/index.ts';
import * as repo from './painel.repository.ts';

export type { StaffRow } from './painel.repository.ts';

export interface StaffServiceDeps {
  db: Db;
  env: Env;
  now: () => Date;
}

/** Failed sign-ins before an account locks, and for how long (the customers' rule, docs/architecture.md §4). */
const LOCK_AFTER = 10;
const LOCK_MINUTES = 15;
const TOTP_PERIOD = 30;
const BAD_LOGIN = 'E-mail ou senha incorretos.';

export const toStaffWire = (row: repo.StaffRow): Staff => ({
  id: row.id,
  email: row.email,
  name: row.name,
  role: row.role,
  totp_enabled: row.totpEnabled,
  active: row.active,
});

/** Staff accounts, their sessions and two-factor sign-in; customers' accounts are never consulted. */
export function createStaffService(deps: StaffServiceDeps) {
  const { db } = deps;

  function totpFor(row: repo.StaffRow, secret: string) {
    return new TOTP({
      issuer: `${deps.env.STORE_NAME} painel`,
      label: row.email,
      algorithm: 'SHA1',
      digits: 6,
      period: TOTP_PERIOD,
      secret: Secret.fromBase32(secret),
    });
  }

  /** True when the code is right for now (±30 s) and newer than the last one accepted. */
  async function checkTotp(row: repo.StaffRow, code: string): Promise<boolean> {
    if (!row.totpSecret) return false;
    const timestamp = deps.now().getTime();
    const delta = totpFor(row, row.totpSecret).validate({ token: code, window: 1, timestamp });
    if (delta === null) return false;
    const step = Math.floor(timestamp / 1000 / TOTP_PERIOD) + delta;
    return repo.claimTotpStep(db, row.id, step);
  }

  const mustSetUp2fa = (row: repo.StaffRow) => deps.env.PAINEL_REQUIRE_2FA && !row.totpEnabled;

  async function login(input: { email: string; password: string; codigo?: string }) {
    const row = await repo.findStaffByEmail(db, input.email.trim());
    if (!row?.active) {
      await verifyAgainstDummy(input.password);
      throw unauthorized(BAD_LOGIN);
    }
    const now = deps.now();
    if (row.lockedUntil && row.lockedUntil > now) {
      throw new HttpError(
        429,
        'Muitas tentativas. Aguarde alguns minutos e tente novamente.',
        'rate_limited',
      );
    }
    if (!(await verifyPassword(row.passwordHash, input.password))) {
      await repo.recordFailedLogin(db, row.id, LOCK_AFTER, new Date(now.getTime() + LOCK_MINUTES * 60_000));
      throw unauthorized(BAD_LOGIN);
    }
    if (row.totpEnabled) {
      if (!input.codigo) {
        throw new HttpError(401, 'Informe o código do aplicativo autenticador.', 'codigo_2fa_necessario');
      }
      if (!(await checkTotp(row, input.codigo))) {
        await repo.recordFailedLogin(db, row.id, LOCK_AFTER, new Date(now.getTime() + LOCK_MINUTES * 60_000));
        throw new HttpError(401, 'Código inválido ou já usado.', 'codigo_2fa_invalido');
      }
    }
    await repo.updateStaff(db, row.id, { failedLogins: 0, lockedUntil: null });
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(now.getTime() + deps.env.PAINEL_SESSION_TTL_HOURS * 3_600_000);
    await repo.insertSession(db, row.id, hashToken(token), expiresAt);
    return { token, staff: toStaffWire(row), precisa_ativar_2fa: mustSetUp2fa(row) };
  }

  /** The staff member a back-office token belongs to, or undefined (customer tokens never match). */
  function fromToken(token: string) {
    return repo.findLiveSession(db, hashToken(token), deps.now());
  }

  async function logout(token: string) {
    await repo.revokeSession(db, hashToken(token), deps.now());
  }

  /** A fresh secret, not yet trusted: it counts only after a code from the app confirms it. */
  async function startTotpSetup(row: repo.StaffRow) {
    if (row.totpEnabled) throw conflict('A verificação em duas etapas já está ativa.', '2fa_ativo');
    const secret = new Secret({ size: 20 }).base32;
    await repo.updateStaff(db, row.id, { totpSecret: secret });
    const otpauthUrl = totpFor(row, secret).toString();
    return {
      secret,
      otpauth_url: otpauthUrl,
      qr_code: await QRCode.toDataURL(otpauthUrl, { errorCorrectionLevel: 'M', margin: 1, width: 240 }),
    };
  }

  async function enableTotp(row: repo.StaffRow, code: string) {
    if (row.totpEnabled) throw conflict('A verificação em duas etapas já está ativa.', '2fa_ativo');
    if (!row.totpSecret) throw conflict('Comece pela leitura do QR code.', '2fa_sem_segredo');
    if (!(await checkTotp(row, code)))
      throw badRequest('Código inválido. Confira o relógio do celular.', 'codigo_2fa_invalido');
    return repo.updateStaff(db, row.id, { totpEnabled: true });
  }

  async function disableTotp(row: repo.StaffRow, code: string) {
    if (!row.totpEnabled) throw conflict('A verificação em duas etapas não está ativa.', '2fa_inativo');
    if (deps.env.PAINEL_REQUIRE_2FA) {
      throw conflict('A verificação em duas etapas é obrigatória nesta loja.', '2fa_obrigatorio');
    }
    if (!(await checkTotp(row, code))) throw badRequest('Código inválido.', 'codigo_2fa_invalido');
    return repo.updateStaff(db, row.id, { totpEnabled: false, totpSecret: null, totpLastStep: null });
  }

  async function createStaff(input: { email: string; name: string; role: StaffRole; password: string }) {
    if (isCommonPassword(input.password)) {
      throw badRequest(COMMON_PASSWORD_MESSAGE, 'validation_error', { password: COMMON_PASSWORD_MESSAGE });
    }
    const created = await repo.insertStaff(db, {
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
    return created;
  }

  /** Role and active flag; the last active admin can be neither demoted nor deactivated. */
  async function updateStaff(id: number, patch: { role?: StaffRole; active?: boolean }) {
    return db.transaction(async (tx) => {
      const before = await repo.findStaffById(tx, id);
      if (!before) throw notFound('Conta da equipe não encontrada.');
      const after = await repo.updateStaff(tx, id, patch);
      if ((await repo.countAdmins(tx)) === 0) {
        throw conflict('A loja precisa de pelo menos um administrador ativo.', 'ultimo_admin');
      }
      if (patch.active === false) await repo.revokeAllSessions(tx, id, deps.now());
      return { before, after: after! };
    });
  }

  /** ADMIN_EMAIL/ADMIN_PASSWORD at start: creates that admin only while the shop has none. */
  async function ensureFirstAdmin(): Promise<repo.StaffRow | null> {
    const { ADMIN_EMAIL, ADMIN_PASSWORD, ADMIN_NAME } = deps.env;
    if (!ADMIN_EMAIL || !ADMIN_PASSWORD) return null;
    if ((await repo.countAdmins(db)) > 0) return null;
    const created = await repo.insertStaff(db, {
      email: ADMIN_EMAIL,
      name: ADMIN_NAME,
      role: 'admin',
      passwordHash: await hashPassword(ADMIN_PASSWORD),
    });
    return created ?? null;
  }

  return {
    login,
    fromToken,
    logout,
    mustSetUp2fa,
    startTotpSetup,
    enableTotp,
    disableTotp,
    createStaff,
    updateStaff,
    ensureFirstAdmin,
    listStaff: () => repo.listStaff(db),
  };
}

export type StaffService = ReturnType<typeof createStaffService>;
