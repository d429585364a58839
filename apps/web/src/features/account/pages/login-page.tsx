import { zodResolver } from '@hookform/resolvers/zod';
import { LoginRequestSchema } from '@passada/core/contracts/accounts';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import type { z } from 'zod';
import { FormField, FormStatus, linkClass, primaryButtonClass } from '../../../components/form-field.tsx';
import { loginReason, safeNextPath, withNext } from '../../../components/require-auth.tsx';
import { logIn } from '../../../lib/accounts-api.ts';
import { ApiRequestError } from '../../../lib/api.ts';
import { useSession } from '../../../lib/session.tsx';

type Form = z.input<typeof LoginRequestSchema>;

/** Spec §4: success stores the token, says so and goes to / (or back to `?next=`). */
export default function LoginPage() {
  const { signIn } = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = safeNextPath(params.get('next'));
  const reason = loginReason(next);
  const [status, setStatus] = useState<{ message: string; tone: 'success' | 'error' } | null>(null);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<Form, unknown, z.output<typeof LoginRequestSchema>>({
    resolver: zodResolver(LoginRequestSchema),
    defaultValues: { username: '', password: '' },
  });

  const onSubmit = handleSubmit(async ({ username, password }) => {
    setStatus(null);
    try {
      const { token } = await logIn(username, password);
      if (!token) throw new Error('no token');
      signIn(token);
      setStatus({ message: 'Login realizado com sucesso!', tone: 'success' });
      timer.current = window.setTimeout(() => navigate(next, { replace: true }), 800);
    } catch (error) {
      const tooMany = error instanceof ApiRequestError && error.status === 429 && error.body?.detail;
      setStatus({ message: tooMany || 'Credenciais inválidas', tone: 'error' });
    }
  });

  return (
    <main className="mx-auto max-w-md px-4 py-10">
      <h1 className="mb-6 text-2xl font-bold">Entrar</h1>
      {reason ? (
        <p className="mb-6 rounded-lg bg-brand-50 p-3 text-stone-900 dark:bg-stone-800 dark:text-stone-100">
          {reason}
        </p>
      ) : null}
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
        <FormField
          label="Usuário ou e-mail"
          autoComplete="username"
          required
          error={errors.username?.message}
          {...register('username')}
        />
        <FormField
          label="Senha"
          type="password"
          autoComplete="current-password"
          required
          error={errors.password?.message}
          {...register('password')}
        />
        <FormStatus message={status?.message ?? null} tone={status?.tone ?? 'error'} />
        <button type="submit" className={primaryButtonClass} disabled={isSubmitting}>
          Entrar
        </button>
      </form>
      <div className="mt-6 flex flex-col gap-2 text-sm">
        <Link to="/login/recuperar-senha" className={linkClass}>
          Esqueci minha senha
        </Link>
        <p>
          Ainda não tem conta?{' '}
          <Link to={withNext('/criarconta', next)} className={linkClass}>
            Crie uma conta
          </Link>
        </p>
      </div>
    </main>
  );
}
