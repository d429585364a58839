import { zodResolver } from '@hookform/resolvers/zod';
import { PasswordResetRequestSchema } from '@passada/core/contracts/accounts';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { FormField, FormStatus, primaryButtonClass } from '../../../components/form-field.tsx';
import { detailOf, requestPasswordReset } from '../../../lib/accounts-api.ts';
import { FooterLink } from '../components/footer-link.tsx';

type Form = z.input<typeof PasswordResetRequestSchema>;

/** Sends a one-hour, single-use reset link; the answer never tells whether the e-mail has an account. */
export default function ForgotPasswordPage() {
  const [status, setStatus] = useState<{ message: string; tone: 'success' | 'error' } | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<Form, unknown, z.output<typeof PasswordResetRequestSchema>>({
    resolver: zodResolver(PasswordResetRequestSchema),
    defaultValues: { email: '' },
  });

  const onSubmit = handleSubmit(async ({ email }) => {
    setStatus(null);
    try {
      const { detail } = await requestPasswordReset(email);
      setStatus({ message: detail, tone: 'success' });
    } catch (error) {
      setStatus({
        message: detailOf(error, 'Não foi possível enviar o e-mail. Tente novamente.'),
        tone: 'error',
      });
    }
  });

  return (
    <main className="mx-auto max-w-md px-4 py-10">
      <h1 className="mb-2 text-2xl font-bold">Recuperar senha</h1>
      <p className="mb-6 text-stone-600 dark:text-stone-400">
        Informe o e-mail da sua conta. Enviaremos um link para você criar uma nova senha.
      </p>
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
        <FormField
          label="E-mail"
          type="email"
          autoComplete="email"
          required
          error={errors.email?.message}
          {...register('email')}
        />
        <FormStatus message={status?.message ?? null} tone={status?.tone ?? 'error'} />
        <button type="submit" className={primaryButtonClass} disabled={isSubmitting}>
          Confirmar
        </button>
      </form>
      <FooterLink to="/login">Voltar para o login</FooterLink>
    </main>
  );
}
