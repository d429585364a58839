import type { WaitlistEntryWire } from '@passada/core/contracts/waitlist';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { FormField, FormStatus, primaryButtonClass, SelectField } from '../../../components/form-field.tsx';
import { cpfMask, MaskedField } from '../../../components/masked-field.tsx';
import { ApiRequestError } from '../../../lib/api.ts';
import { eventWaitlistQuery, joinWaitlist } from '../../../lib/waitlist-api.ts';

/** "A categoria 10 km está esgotada." / "As categorias 5 km e 10 km estão esgotadas.": a distance is no noun. */
function soldOutText(names: readonly string[]): string {
  if (names.length === 1) return `A categoria ${names[0]} está esgotada.`;
  return `As categorias ${names.slice(0, -1).join(', ')} e ${names.at(-1)} estão esgotadas.`;
}

/**
 * The waitlist of the event's sold-out categories (docs/decisions/0042-waitlist.md): name, CPF and
 * e-mail, no account needed. Shown only when some category with a waitlist is sold out.
 */
export function WaitlistJoin({ eventId, open }: { eventId: number; open: boolean }) {
  const query = useQuery(eventWaitlistQuery(eventId));
  const categories = (query.data?.categorias ?? []).filter((c) => c.lista_espera && c.esgotada);
  const [category, setCategory] = useState<string>('');
  const [name, setName] = useState('');
  const [cpf, setCpf] = useState('');
  const [email, setEmail] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<{ message: string; tone: 'success' | 'error' } | null>(null);
  const [joined, setJoined] = useState<WaitlistEntryWire | null>(null);
  const [sending, setSending] = useState(false);
  const headingId = useId();
  if (!open || categories.length === 0) return null;
  const chosen = category || String(categories[0]!.id);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setErrors({});
    setStatus(null);
    setSending(true);
    try {
      const entry = await joinWaitlist(eventId, {
        categoria: Number(chosen),
        nome_completo: name,
        cpf,
        email,
      });
      setJoined(entry);
      void query.refetch();
    } catch (error) {
      if (error instanceof ApiRequestError) {
        setErrors(error.body?.errors ?? {});
        setStatus({ message: error.body?.detail ?? 'Não foi possível entrar na lista.', tone: 'error' });
      } else setStatus({ message: 'Não foi possível entrar na lista. Tente novamente.', tone: 'error' });
    } finally {
      setSending(false);
    }
  }

  return (
    <section
      aria-labelledby={headingId}
      className="mt-8 rounded-xl border border-stone-300 p-4 dark:border-stone-700"
    >
      <h2 id={headingId} className="text-xl font-bold">
        Lista de espera
      </h2>
      {joined ? (
        <p role="status" className="mt-2">
          Pedido recebido para a lista de espera de {joined.categoria_nome}. Enviamos para {email} a resposta,
          com o link para acompanhar sua posição ou sair da lista. Se uma vaga for liberada, ela será
          oferecida por e-mail a quem estiver em primeiro.
        </p>
      ) : (
        <form onSubmit={(e) => void submit(e)} noValidate className="mt-2 grid gap-3 md:max-w-md">
          <p className="text-sm">
            {soldOutText(categories.map((c) => c.nome))} Entre na fila: quando uma vaga for liberada, ela é
            oferecida por e-mail a quem estiver em primeiro.
          </p>
          {categories.length > 1 ? (
            <SelectField label="Categoria" value={chosen} onChange={(e) => setCategory(e.target.value)}>
              {categories.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.nome}
                </option>
              ))}
            </SelectField>
          ) : null}
          <FormField
            label="Nome completo"
            value={name}
            onChange={(e) => setName(e.target.value)}
            error={errors.nome_completo}
            autoComplete="name"
          />
          <MaskedField
            label="CPF"
            mask={cpfMask}
            defaultValue=""
            onChange={(e) => setCpf(e.currentTarget.value)}
            error={errors.cpf}
            placeholder="000.000.000-00"
          />
          <FormField
            label="E-mail"
            type="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            error={errors.email}
            autoComplete="email"
          />
          <FormStatus message={status?.message ?? null} tone={status?.tone ?? 'success'} />
          <button type="submit" disabled={sending} className={`${primaryButtonClass} justify-self-start`}>
            Entrar na lista de espera
          </button>
        </form>
      )}
    </section>
  );
}
