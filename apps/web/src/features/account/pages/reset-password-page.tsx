import { zodResolver } from '@hookform/resolvers/zod';
import { PasswordResetConfirmSchema } from '@passada/core/contracts/accounts';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useSearchParams } from 'react-router';
import type { z } from 'zod';
import { FormField, FormStatus, primaryButtonClass } from '../../../components/form-field.tsx';
import { confirmPasswordReset, detailOf, showFieldErrors } from '../../../lib/accounts-api.ts';
import { FooterLink } from '../components/footer-link.tsx';

type Form = z.input<typeof PasswordResetConfirmSchema>;

/** Reached from the recovery e-mail: `?token=` is the single-use link. */
export default function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [status, setStatus] = useState<{ message: string; tone: 'success' | 'error' } | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<Form, unknown, z.output<typeof PasswordResetConfirmSchema>>({
    resolver: zodResolver(PasswordResetConfirmSchema),
    defaultValues: { token, password: '', password_confirm: '' },
  });

  const onSubmit = handleSubmit(async (data) => {
    setStatus(null);
    try {
      const { detail } = await confirmPasswordReset(data);
      setStatus({ message: detail, tone: 'success' });
    } catch (error) {
      showFieldErrors(error, ['password', 'password_confirm'], setError);
      setStatus({ message: detailOf(error, 'Não foi possível redefinir a senha.'), tone: 'error' });
    }
  });

  const done = status?.tone === 'success';
  return (
    <main className="mx-auto max-w-md px-4 py-10">
      <h1 className="mb-6 text-2xl font-bold">Redefinir senha</h1>
      {token ? null : (
        <p role="alert" className="mb-4 font-medium text-red-700 dark:text-red-400">
          Link inválido ou expirado. Peça um novo e-mail de recuperação.
        </p>
      )}
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
        <input type="hidden" {...register('token')} />
        <FormField
          label="Nova senha"
          type="password"
          autoComplete="new-password"
          required
          error={errors.password?.message}
          {...register('password')}
        />
        <FormField
          label="Confirme a nova senha"
          type="password"
          autoComplete="new-password"
          required
          error={errors.password_confirm?.message}
          {...register('password_confirm')}
        />
        <FormStatus message={status?.message ?? null} tone={status?.tone ?? 'error'} />
        <button type="submit" className={primaryButtonClass} disabled={isSubmitting || done || !token}>
          Redefinir senha
        </button>
      </form>
      <FooterLink to={done ? '/login' : '/login/recuperar-senha'}>
        {done ? 'Ir para o login' : 'Pedir um novo link'}
      </FooterLink>
    </main>
  );
}
