import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { FormField, secondaryButtonClass } from '../../../components/form-field.tsx';
import { fieldErrorsOf } from '../../../lib/accounts-api.ts';
import { serverCartQuery, useSetReminders, useSetReminderWhatsApp } from '../api/reminders.ts';

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
      {cart.data.lembretes ? <ReminderWhatsApp number={cart.data.whatsapp} /> : null}
    </section>
  );
}

/**
 * The same reminder by WhatsApp (decision 0084): an opt-in of its own, with the number it goes to;
 * "PARAR" in the chat or "Parar pelo WhatsApp" here ends it.
 */
function ReminderWhatsApp({ number }: { number: string | null }) {
  const save = useSetReminderWhatsApp();
  const [phone, setPhone] = useState('');
  const [error, setError] = useState<string | undefined>();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    try {
      await save.mutateAsync(phone);
      setPhone('');
    } catch (err) {
      setError(fieldErrorsOf(err).telefone ?? 'Não foi possível salvar agora. Tente de novo.');
    }
  };
  if (number)
    return (
      <div className="mt-3 text-sm">
        <p>Também pelo WhatsApp, no número {number}. Para parar, responda PARAR na conversa ou:</p>
        <button
          type="button"
          className={`${secondaryButtonClass} mt-2`}
          disabled={save.isPending}
          onClick={() => void save.mutateAsync(null)}
        >
          Parar pelo WhatsApp
        </button>
      </div>
    );
  return (
    <form
      onSubmit={submit}
      noValidate
      aria-label="Lembrete também pelo WhatsApp"
      className="mt-3 flex flex-wrap items-end gap-2"
    >
      <FormField
        label="Quero o lembrete também pelo WhatsApp, neste número"
        type="tel"
        inputMode="tel"
        autoComplete="tel"
        value={phone}
        error={error}
        onChange={(e) => setPhone(e.target.value)}
      />
      <button type="submit" className={secondaryButtonClass} disabled={save.isPending}>
        Receber pelo WhatsApp
      </button>
    </form>
  );
}
