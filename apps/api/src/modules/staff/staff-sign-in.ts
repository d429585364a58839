import { randomBytes, randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import type { Db } from '../../db/client.ts';
import { hashToken } from '../../plugins/auth.ts';
import { badRequest, conflict, HttpError, unauthorized } from '../../plugins/errors.ts';
import { hashPassword, verifyAgainstDummy, verifyPassword } from '../../plugins/passwords.ts';
import { RATE_LIMITED } from '../../plugins/rate-limit.ts';
import { type AuditActor, audit } from './audit.ts';
import * as repo from './staff.repository.ts';
import {
  loginKey,
  normaliseEmail,
  refuseCommonPassword,
  type StaffServiceDeps,
  toStaffWire,
  withEvents,
} from './staff-wire.ts';

const TOTP_PERIOD = 30;
const BAD_LOGIN = 'E-mail ou senha incorretos.';
/** One-time codes given when two-step sign-in is turned on (docs/decisions/0023). */
export const RECOVERY_CODE_COUNT = 10;
/** No 0/o, 1/l/i: the codes are read off paper. 10 characters of 31 are about 50 bits each. */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
/** Throttle counters nobody touched for a day are dropped. */
const THROTTLE_KEEP_MS = 24 * 3_600_000;

const accountKey = (id: number) => `conta:${id}`;

/** `abcde-fghjk`; typed back with or without the dash, in any case. */
function newRecoveryCode(): string {
  let code = '';
  for (let i = 0; i < 10; i++) code += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}
const recoveryCodeHash = (code: string) => hashToken(code.toLowerCase().replace(/[^a-z0-9]/g, ''));

/**
 * A member's own side: sign-in with the throttle and the second step, sessions, setting up and turning
 * off two-step sign-in, recovery codes, one's own password (docs/decisions/0023).
 */
export function createStaffSignIn(deps: StaffServiceDeps) {
  const { db, env } = deps;

  function totpFor(row: repo.StaffRow, secret: string) {
    return new TOTP({
      issuer: `${env.STORE_NAME} painel`,
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

  const mustSetUp2fa = (row: repo.StaffRow) => env.PAINEL_REQUIRE_2FA && !row.totpEnabled;

  /**
   * Counts one attempt at a secret under `key` before it is checked (docs/decisions/0023, the OWASP
   * Authentication Cheat Sheet's account lockout): 429 while locked, whoever asks; answers whether
   * this attempt is the one that locks, for the audit line if it fails.
   */
  async function takeAttempt(key: string): Promise<{ locksIfWrong: Date | null }> {
    const now = deps.now();
    const windowMs = env.PAINEL_LOGIN_LOCK_MINUTES * 60_000;
    const taken = await repo.takeAttempt(db, {
      key,
      now,
      lockAfter: env.PAINEL_LOGIN_LOCK_AFTER,
      lockUntil: new Date(now.getTime() + windowMs),
      windowStartedBefore: new Date(now.getTime() - windowMs),
    });
    if (taken.locked) throw new HttpError(429, RATE_LIMITED, 'rate_limited');
    return { locksIfWrong: taken.lockedUntil };
  }

  /** The audit lines of a refused attempt: the failure, and the lock-out when this one caused it. */
  async function auditFailure(
    who: AuditActor,
    staffId: number | null,
    attempt: { locksIfWrong: Date | null },
    details: Record<string, unknown>,
  ) {
    await audit(db, who, { action: 'entrada_recusada', entity: 'equipe', entityId: staffId, after: details });
    if (attempt.locksIfWrong) {
      await audit(db, who, {
        action: 'bloqueado',
        entity: 'equipe',
        entityId: staffId,
        after: { ...details, ate: attempt.locksIfWrong.toISOString() },
      });
    }
  }

  /**
   * Known and unknown e-mails take the same path: each attempt counts under the e-mail before the
   * password is checked (an unknown one against a dummy hash), so both answer 401 alike and lock
   * alike. Only a full success (password and, when on, the second step) forgets the failures. A right
   * password without its code gives back just its own attempt: forgetting them all would let code
   * guesses alternate with it for ever.
   */
  async function login(
    input: { email: string; password: string; codigo?: string; codigo_recuperacao?: string },
    ip: string,
  ) {
    const email = normaliseEmail(input.email);
    const key = loginKey(email);
    const attempt = await takeAttempt(key);
    await repo.pruneAttempts(db, new Date(deps.now().getTime() - THROTTLE_KEEP_MS));
    const found = await repo.findStaffByEmail(db, email);
    const row = found?.active ? found : undefined;
    const who: AuditActor = { id: row?.id ?? null, email };
    const passwordOk = row
      ? await verifyPassword(row.passwordHash, input.password)
      : await verifyAgainstDummy(input.password);
    if (!row || !passwordOk) {
      await auditFailure(who, row?.id ?? null, attempt, { ip, motivo: 'senha' });
      throw unauthorized(BAD_LOGIN);
    }
    let method = 'senha';
    if (row.totpEnabled) {
      if (input.codigo_recuperacao) {
        method = 'codigo_recuperacao';
        const used = await repo.useRecoveryCode(
          db,
          row.id,
          recoveryCodeHash(input.codigo_recuperacao),
          deps.now(),
        );
        if (!used) {
          await auditFailure(who, row.id, attempt, { ip, motivo: 'codigo_recuperacao' });
          throw new HttpError(
            401,
            'Código de recuperação inválido ou já usado.',
            'codigo_recuperacao_invalido',
          );
        }
      } else if (!input.codigo) {
        await repo.releaseAttempt(db, key, env.PAINEL_LOGIN_LOCK_AFTER);
        throw new HttpError(401, 'Informe o código do aplicativo autenticador.', 'codigo_2fa_necessario');
      } else {
        method = 'aplicativo';
        if (!(await checkTotp(row, input.codigo))) {
          await auditFailure(who, row.id, attempt, { ip, motivo: 'codigo_2fa' });
          throw new HttpError(401, 'Código inválido ou já usado.', 'codigo_2fa_invalido');
        }
      }
    }
    await repo.clearAttempts(db, key);
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(deps.now().getTime() + env.PAINEL_SESSION_TTL_HOURS * 3_600_000);
    await repo.insertSession(db, row.id, hashToken(token), expiresAt);
    const left =
      method === 'codigo_recuperacao' ? await repo.countUnusedRecoveryCodes(db, row.id) : undefined;
    await audit(db, row, {
      action: 'entrou',
      entity: 'equipe',
      entityId: row.id,
      after: { ip, metodo: method, ...(left === undefined ? {} : { codigos_recuperacao_restantes: left }) },
    });
    return { token, staff: await withEvents(db, row), precisa_ativar_2fa: mustSetUp2fa(row) };
  }

  /**
   * A secret a signed-in person types (a TOTP code, the current password): limited like sign-in,
   * under the account's own key, so a stolen session cannot guess its way to turning 2FA off.
   */
  async function checkSecret(row: repo.StaffRow, ip: string, motivo: string, check: () => Promise<boolean>) {
    const attempt = await takeAttempt(accountKey(row.id));
    if (!(await check())) {
      await auditFailure(row, row.id, attempt, { ip, motivo });
      return false;
    }
    await repo.clearAttempts(db, accountKey(row.id));
    return true;
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
    await audit(db, row, { action: '2fa_segredo_gerado', entity: 'equipe', entityId: row.id });
    const otpauthUrl = totpFor(row, secret).toString();
    return {
      secret,
      otpauth_url: otpauthUrl,
      qr_code: await QRCode.toDataURL(otpauthUrl, { errorCorrectionLevel: 'M', margin: 1, width: 240 }),
    };
  }

  /** Fresh recovery codes replace the old ones; only their hashes are kept, so this is the one showing. */
  async function newRecoveryCodes(tx: Db, staffId: number): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    await repo.replaceRecoveryCodes(tx, staffId, codes.map(recoveryCodeHash));
    return codes;
  }

  async function enableTotp(row: repo.StaffRow, code: string, ip: string) {
    if (row.totpEnabled) throw conflict('A verificação em duas etapas já está ativa.', '2fa_ativo');
    if (!row.totpSecret) throw conflict('Comece pela leitura do QR code.', '2fa_sem_segredo');
    if (!(await checkSecret(row, ip, 'codigo_2fa', () => checkTotp(row, code))))
      throw badRequest('Código inválido. Confira o relógio do celular.', 'codigo_2fa_invalido');
    const after = (await repo.updateStaff(db, row.id, { totpEnabled: true }))!;
    const codes = await newRecoveryCodes(db, row.id);
    await audit(db, row, {
      action: '2fa_ativado',
      entity: 'equipe',
      entityId: row.id,
      before: toStaffWire(row),
      after: { ...toStaffWire(after), codigos_recuperacao_gerados: codes.length },
    });
    return { ...toStaffWire(after), codigos_recuperacao: codes };
  }

  async function disableTotp(row: repo.StaffRow, code: string, ip: string) {
    if (!row.totpEnabled) throw conflict('A verificação em duas etapas não está ativa.', '2fa_inativo');
    if (env.PAINEL_REQUIRE_2FA) {
      throw conflict('A verificação em duas etapas é obrigatória nesta loja.', '2fa_obrigatorio');
    }
    if (!(await checkSecret(row, ip, 'codigo_2fa', () => checkTotp(row, code))))
      throw badRequest('Código inválido.', 'codigo_2fa_invalido');
    const after = (await repo.updateStaff(db, row.id, {
      totpEnabled: false,
      totpSecret: null,
      totpLastStep: null,
    }))!;
    await repo.deleteRecoveryCodes(db, row.id);
    await audit(db, row, {
      action: '2fa_desativado',
      entity: 'equipe',
      entityId: row.id,
      before: toStaffWire(row),
      after: toStaffWire(after),
    });
    return toStaffWire(after);
  }

  /** New recovery codes (the old ones stop working); asks for a code from the app. */
  async function regenerateRecoveryCodes(row: repo.StaffRow, code: string, ip: string) {
    if (!row.totpEnabled) throw conflict('A verificação em duas etapas não está ativa.', '2fa_inativo');
    if (!(await checkSecret(row, ip, 'codigo_2fa', () => checkTotp(row, code))))
      throw badRequest('Código inválido.', 'codigo_2fa_invalido');
    const codes = await newRecoveryCodes(db, row.id);
    await audit(db, row, {
      action: 'codigos_recuperacao_gerados',
      entity: 'equipe',
      entityId: row.id,
      after: { quantidade: codes.length },
    });
    return { codigos_recuperacao: codes };
  }

  /**
   * One's own password: the current one is checked (limited like sign-in), the new one follows the
   * creation rules; every other session of the person ends, this one stays.
   */
  async function changeOwnPassword(
    row: repo.StaffRow,
    input: { senha_atual: string; nova_senha: string },
    ip: string,
    currentToken: string,
  ) {
    refuseCommonPassword(input.nova_senha, 'nova_senha');
    if (
      !(await checkSecret(row, ip, 'senha_atual', () => verifyPassword(row.passwordHash, input.senha_atual)))
    ) {
      throw badRequest('Senha atual incorreta.', 'validation_error', {
        senha_atual: 'Senha atual incorreta.',
      });
    }
    const passwordHash = await hashPassword(input.nova_senha);
    await db.transaction(async (tx) => {
      await repo.updateStaff(tx, row.id, { passwordHash });
      await repo.revokeAllSessions(tx, row.id, deps.now(), hashToken(currentToken));
      await audit(tx, row, { action: 'senha_alterada', entity: 'equipe', entityId: row.id });
    });
  }

  async function me(row: repo.StaffRow) {
    return {
      staff: await withEvents(db, row),
      precisa_ativar_2fa: mustSetUp2fa(row),
      codigos_recuperacao_restantes: row.totpEnabled ? await repo.countUnusedRecoveryCodes(db, row.id) : 0,
    };
  }

  return {
    login,
    fromToken,
    logout,
    mustSetUp2fa,
    startTotpSetup,
    enableTotp,
    disableTotp,
    regenerateRecoveryCodes,
    changeOwnPassword,
    me,
  };
}
