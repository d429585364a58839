import type { StaffRole } from '@passada/core/contracts/painel';
import type { FastifyInstance } from 'fastify';
import { Secret, TOTP } from 'otpauth';

let seq = 0;

export interface TestStaff {
  id: number;
  email: string;
  password: string;
  token: string;
  headers: { authorization: string };
}

/** A staff member created through the painel's service and signed in over HTTP. */
export async function createStaffAndLogin(
  app: FastifyInstance,
  role: StaffRole = 'admin',
): Promise<TestStaff> {
  seq += 1;
  const email = `equipe${seq}_${process.pid}@passada.com.br`;
  const password = `painel-seguro-${seq}-${process.pid}`;
  const row = await app.painel.staff.createStaff({ email, name: `Equipe ${seq}`, role, password });
  const res = await app.inject({
    method: 'POST',
    url: '/api/painel/auth/login/',
    payload: { email, password },
  });
  if (res.statusCode !== 200) throw new Error(`login da equipe falhou: ${res.body}`);
  const token = res.json().token as string;
  return { id: row.id, email, password, token, headers: { authorization: `Token ${token}` } };
}

/** The code an authenticator app would show for `secret` at `when`. */
export function totpCode(secret: string, when: Date): string {
  return TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: when.getTime() });
}
