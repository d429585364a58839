import type { EventInput } from '@passada/core/contracts/painel';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ChangeEvent, type FormEvent, useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import {
  FormField,
  FormStatus,
  linkClass,
  primaryButtonClass,
  secondaryButtonClass,
  TextAreaField,
} from '../../../components/form-field.tsx';
import { ApiRequestError } from '../../../lib/api.ts';
import { errorMessage, painelFetch } from '../painel-api.ts';

type Draft = Omit<EventInput, 'state'> & { state: string };
type Day = Draft['dias_evento'][number];
type TextKey = { [K in keyof Draft]-?: Draft[K] extends string ? K : never }[keyof Draft];

const blankDay = (): Day => ({
  data: '',
  categorias: [{ nome_categoria: '', preco_inscricao: 0, quantidade_disponivel: 100 }],
});
const blank: Draft = {
  nome_evento: '',
  organizer: '',
  city: '',
  state: '',
  prazo_inscricao: '',
  hora_evento: '06:00',
  descricao_evento: '',
  regulamento: '',
  imagem_evento: '',
  dias_evento: [blankDay()],
};

/** `/painel/eventos/novo` and `/painel/eventos/:id/editar` (admins): the event, its days and categories. */
export default function EventFormPage() {
  const { id } = useParams();
  const eventId = id ? Number(id) : null;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const existing = useQuery({
    queryKey: ['painel', 'event', eventId],
    queryFn: () => painelFetch<Draft & { id: number }>(`/events/${eventId}/`),
    enabled: eventId !== null,
  });
  const [draft, setDraft] = useState<Draft>(blank);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<{ message: string; tone: 'success' | 'error' } | null>(null);

  useEffect(() => {
    if (existing.data) setDraft({ ...blank, ...existing.data });
  }, [existing.data]);

  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  // Text fields bind the same way: the draft's value, the server's error for that key, and a setter.
  const field = (key: TextKey) => ({
    value: draft[key],
    error: errors[key],
    onChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => set(key, e.target.value),
  });
  const setDay = (i: number, day: Day) =>
    set(
      'dias_evento',
      draft.dias_evento.map((d, j) => (j === i ? day : d)),
    );
  const setCategory = (i: number, k: number, patch: Partial<Day['categorias'][number]>) => {
    const day = draft.dias_evento[i];
    if (day)
      setDay(i, { ...day, categorias: day.categorias.map((c, m) => (m === k ? { ...c, ...patch } : c)) });
  };

  const upload = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (!file) return;
    const form = new FormData();
    form.append('foto', file);
    try {
      const { url } = await painelFetch<{ url: string }>('/events/image/', { method: 'POST', body: form });
      set('imagem_evento', url);
    } catch (error) {
      setStatus({ message: errorMessage(error), tone: 'error' });
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    const body = {
      ...draft,
      dias_evento: draft.dias_evento.map((d) => ({
        data: d.data,
        categorias: d.categorias.map((c) => ({
          ...c,
          preco_inscricao: Number(String(c.preco_inscricao).replace(',', '.')),
          quantidade_disponivel: Number(c.quantidade_disponivel),
        })),
      })),
    };
    try {
      const saved = await painelFetch<{ id: number }>(eventId ? `/events/${eventId}/` : '/events/', {
        method: eventId ? 'PUT' : 'POST',
        body,
      });
      await queryClient.invalidateQueries({ queryKey: ['painel'] });
      setStatus({ message: 'Evento salvo.', tone: 'success' });
      if (!eventId) navigate(`/painel/eventos/${saved.id}/editar`, { replace: true });
    } catch (error) {
      if (error instanceof ApiRequestError && error.body?.errors) setErrors(error.body.errors);
      setStatus({ message: errorMessage(error), tone: 'error' });
    }
  };

  return (
    <section className="max-w-3xl">
      <p className="mb-2">
        <Link to="/painel/eventos" className={linkClass}>
          ← Eventos
        </Link>
      </p>
      <h1 className="mb-4 text-2xl font-bold">{eventId ? 'Editar evento' : 'Novo evento'}</h1>
      <form onSubmit={submit} noValidate className="grid gap-4">
        <FormField label="Nome do evento" {...field('nome_evento')} />
        <FormField label="Organizador" {...field('organizer')} />
        <div className="grid grid-cols-2 gap-4 md:grid-cols-4">
          <FormField label="Cidade" {...field('city')} />
          <FormField label="UF" maxLength={2} {...field('state')} />
          <FormField label="Prazo de inscrição" type="date" {...field('prazo_inscricao')} />
          <FormField label="Horário" type="time" {...field('hora_evento')} />
        </div>
        <TextAreaField label="Descrição" rows={4} {...field('descricao_evento')} />
        <TextAreaField label="Regulamento" rows={8} {...field('regulamento')} />
        <div>
          <label className={`${secondaryButtonClass} inline-block cursor-pointer`}>
            Enviar imagem do evento
            <input
              type="file"
              accept="image/jpeg,image/png,image/webp,image/heic,.heic"
              className="sr-only"
              onChange={upload}
            />
          </label>
          {draft.imagem_evento ? (
            <img src={draft.imagem_evento} alt="Imagem do evento" className="mt-2 max-h-40 rounded" />
          ) : null}
        </div>
        {draft.dias_evento.map((day, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: days are only appended, never reordered or removed
          <fieldset key={i} className="rounded-lg border border-stone-300 p-3 dark:border-stone-700">
            <legend className="px-1 font-semibold">Dia {i + 1}</legend>
            <FormField
              label={`Data do dia ${i + 1}`}
              type="date"
              value={day.data}
              onChange={(e) => setDay(i, { ...day, data: e.target.value })}
            />
            {day.categorias.map((c, k) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: categories are only appended, never reordered or removed
              <div key={k} className="mt-2 grid grid-cols-3 gap-2">
                <FormField
                  label={`Categoria ${k + 1} do dia ${i + 1}`}
                  value={c.nome_categoria}
                  onChange={(e) => setCategory(i, k, { nome_categoria: e.target.value })}
                />
                <FormField
                  label="Preço (R$)"
                  inputMode="decimal"
                  value={String(c.preco_inscricao)}
                  onChange={(e) =>
                    setCategory(i, k, { preco_inscricao: e.target.value as unknown as number })
                  }
                />
                <FormField
                  label="Vagas"
                  type="number"
                  value={String(c.quantidade_disponivel)}
                  onChange={(e) => setCategory(i, k, { quantidade_disponivel: Number(e.target.value) })}
                />
              </div>
            ))}
            <button
              type="button"
              className="mt-2 text-sm underline"
              onClick={() => setDay(i, { ...day, categorias: [...day.categorias, ...blankDay().categorias] })}
            >
              Adicionar categoria
            </button>
          </fieldset>
        ))}
        <button
          type="button"
          className={`${secondaryButtonClass} justify-self-start`}
          onClick={() => set('dias_evento', [...draft.dias_evento, blankDay()])}
        >
          Adicionar dia
        </button>
        {errors.dias_evento ? <p className="text-red-700">{errors.dias_evento}</p> : null}
        <FormStatus message={status?.message ?? null} tone={status?.tone ?? 'success'} />
        <button type="submit" className={`${primaryButtonClass} justify-self-start`}>
          Salvar evento
        </button>
      </form>
    </section>
  );
}
