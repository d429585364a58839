import path from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { StaffRoleSchema } from '@passada/core/contracts/painel';
import { EnvError, loadEnv } from '../src/config/env.ts';
import { openDatabase } from '../src/db/client.ts';
import { createStaffService } from '../src/modules/staff/staff.service.ts';
import { HttpError } from '../src/plugins/errors.ts';

/**
 * `npm run admin:create -- --email … --name … [--role operador]`: creates a back-office account.
 * The password is asked on the terminal without echo, or read from stdin when piped
 * (`echo "$SENHA" | npm run admin:create -- …`), so it never appears in the shell history.
 */
async function readPassword(): Promise<string> {
  if (!process.stdin.isTTY) {
    let data = '';
    for await (const chunk of process.stdin) data += chunk;
    return data.split(/\r?\n/)[0] ?? '';
  }
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
  const ask = (question: string) =>
    new Promise<string>((resolve) => {
      process.stdout.write(question);
      const mute = rl as unknown as { _writeToOutput: (s: string) => void };
      mute._writeToOutput = () => {};
      rl.question('', (answer) => {
        process.stdout.write('\n');
        resolve(answer);
      });
    });
  const first = await ask('Senha: ');
  const second = await ask('Repita a senha: ');
  rl.close();
  if (first !== second) throw new Error('As senhas não conferem.');
  return first;
}

async function main() {
  const { values } = parseArgs({
    options: {
      email: { type: 'string' },
      name: { type: 'string' },
      role: { type: 'string', default: 'admin' },
    },
  });
  const role = StaffRoleSchema.safeParse(values.role);
  if (!values.email || !values.name || !role.success) {
    throw new Error(
      'Uso: npm run admin:create -- --email pessoa@loja.com.br --name "Nome" [--role admin|operador]',
    );
  }
  const password = await readPassword();
  if (password.length < 8 || password.length > 128)
    throw new Error('A senha deve ter de 8 a 128 caracteres.');
  const env = loadEnv();
  const database = await openDatabase({ url: env.DATABASE_URL, dataDir: path.join(env.dataDir, 'pglite') });
  try {
    await database.migrate();
    const service = createStaffService({ db: database.db, env, now: () => new Date() });
    const created = await service.createStaff({
      email: values.email,
      name: values.name,
      role: role.data,
      password,
    });
    console.log(`Conta ${created.role} criada: ${created.email}`);
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  if (error instanceof HttpError) console.error(error.detail);
  else if (error instanceof EnvError || error instanceof Error) console.error(error.message);
  else console.error(error);
  process.exit(1);
});
