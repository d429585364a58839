import { zodResolver } from '@hookform/resolvers/zod';
import { SignUpRequestSchema } from '@passada/core/contracts/accounts';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import type { z } from 'zod';
import { Modal } from '../../../components/dialog.tsx';
import { FormField, FormStatus, linkClass, primaryButtonClass } from '../../../components/form-field.tsx';
import { safeNextPath, withNext } from '../../../components/require-auth.tsx';
import { showFieldErrors, signUp } from '../../../lib/accounts-api.ts';

type Form = z.input<typeof SignUpRequestSchema>;
const FIELDS = ['username', 'full_name', 'email', 'password'] as const;

/**
 * Spec §4: success dialog then /login after 5 s; failure 'Erro ao registrar.' and its dialog. A `?next=`
 * (a guest sent here from a login) goes on to the login, which then brings the new account back there.
 */
export default function SignUpPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const login = withNext('/login', safeNextPath(params.get('next')));
  const [dialog, setDialog] = useState<'success' | 'error' | null>(null);
  const [failed, setFailed] = useState(false);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<Form, unknown, z.output<typeof SignUpRequestSchema>>({
    resolver: zodResolver(SignUpRequestSchema),
    defaultValues: { username: '', full_name: '', email: '', password: '' },
  });

  const onSubmit = handleSubmit(async (data) => {
    setFailed(false);
    try {
      await signUp(data);
      setDialog('success');
      timer.current = window.setTimeout(() => navigate(login), 5000);
    } catch (error) {
      showFieldErrors(error, FIELDS, setError);
      setFailed(true);
      setDialog('error');
    }
  });

  return (
    <main className="mx-auto max-w-md px-4 py-10">
      <h1 className="mb-6 text-2xl font-bold">Crie uma conta</h1>
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
        <FormField
          label="Nome de usuário"
          autoComplete="username"
          required
          error={errors.username?.message}
          {...register('username')}
        />
        <FormField
          label="Nome completo"
          autoComplete="name"
          required
          error={errors.full_name?.message}
          {...register('full_name')}
        />
        <FormField
          label="E-mail"
          type="email"
          autoComplete="email"
          required
          error={errors.email?.message}
          {...register('email')}
        />
        <FormField
          label="Senha"
          type="password"
          autoComplete="new-password"
          required
          error={errors.password?.message}
          {...register('password')}
        />
        <p className="text-sm text-stone-600 dark:text-stone-400">
          Use pelo menos 8 caracteres. Frases longas são bem-vindas.
        </p>
        <FormStatus message={failed ? 'Erro ao registrar.' : null} tone="error" />
        <button type="submit" className={primaryButtonClass} disabled={isSubmitting}>
          Criar conta
        </button>
      </form>
      <p className="mt-6 text-sm">
        Já tem conta?{' '}
        <Link to={login} className={linkClass}>
          Entrar
        </Link>
      </p>
      <Modal
        open={dialog === 'success'}
        onOpenChange={(open) => {
          if (!open) navigate(login);
        }}
        title="CONTA CRIADA COM SUCESSO!"
      >
        <p className="mt-3">Você será levado para a página de login em 5 segundos.</p>
      </Modal>
      <Modal
        open={dialog === 'error'}
        onOpenChange={(open) => !open && setDialog(null)}
        title="ERRO AO CRIAR CONTA!"
      >
        <p className="mt-3">Confira os campos destacados e tente de novo.</p>
      </Modal>
    </main>
  );
}
