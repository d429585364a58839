import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { serverCartQuery, useSetReminders } from '../api/reminders.ts';

/**
 * "Minha conta": whether this account gets one e-mail about a cart or a registration left unpaid. The
 * choice is saved as it is ticked.
 */
export function ReminderChoice() {
  const id = useId();
  const cart = useQuery(serverCartQuery());
  const change = useSetReminders();
  if (!cart.data) return null;
  return (
    <section
      aria-labelledby={`${id}-title`}
      className="rounded-xl border border-stone-200 p-5 dark:border-stone-800"
    >
      <h2 id={`${id}-title`} className="text-lg font-semibold">
        Lembretes
      </h2>
      <label className="mt-2 flex items-start gap-3">
        <input
          type="checkbox"
          className="mt-1 size-5"
          checked={cart.data.lembretes}
          disabled={change.isPending}
          onChange={(e) => change.mutate(e.target.checked)}
        />
        <span>
          Quero um e-mail, uma vez, quando deixar um carrinho ou uma inscrição sem pagar
          <span className="block text-sm text-stone-600 dark:text-stone-400">
            Seu carrinho fica guardado na conta e aparece em qualquer aparelho em que você entrar.
          </span>
        </span>
      </label>
      <p role="status" className="mt-2 text-sm">
        {change.isError
          ? 'Não foi possível salvar agora. Tente de novo.'
          : change.isSuccess
            ? change.data.ativos
              ? 'Lembretes ativados.'
              : 'Você não receberá mais lembretes.'
            : ''}
      </p>
    </section>
  );
}
