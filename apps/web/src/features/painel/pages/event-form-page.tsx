import type { PainelEvent } from '@passada/core/contracts/painel';
import { type ChangeEvent, useEffect, useState } from 'react';
import {
  type Control,
  type FieldError,
  type FieldErrors,
  type FieldPath,
  get,
  type UseFormRegister,
  useFieldArray,
  useForm,
  useWatch,
} from 'react-hook-form';
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
import { useCreateEvent, useEvent, useUpdateEvent, useUploadEventImage } from '../api/events.ts';
import { isStaleVersion, StaleVersionAlert } from '../components/stale-version-alert.tsx';
import { errorMessage } from '../utils/error-message.ts';

/** The form holds what people type (numbers as text, "79,90"); `toInput` turns it into the API's shape. */
interface LotValues {
  nome: string;
  preco_inscricao: string;
  ate_data: string;
  ate_inscricoes: string;
}
interface CategoryValues {
  id?: number | undefined;
  nome_categoria: string;
  preco_inscricao: string;
  /** Total places (sold ones included), never what is left: the server works that out when it saves. */
  capacidade: string;
  lotes: LotValues[];
}
interface DayValues {
  data: string;
  categorias: CategoryValues[];
}
interface KitSizeValues {
  id?: number | undefined;
  tamanho: string;
  /** Total shirts of the size, as for places. */
  capacidade: string;
}
interface EventFormValues {
  nome_evento: string;
  organizer: string;
  city: string;
  state: string;
  prazo_inscricao: string;
  hora_evento: string;
  descricao_evento: string;
  regulamento: string;
  imagem_evento: string;
  kit_tamanhos: KitSizeValues[];
  kit_local_retirada: string;
  kit_horarios_retirada: string;
  oferece_pcd: boolean;
  dias_evento: DayValues[];
}
type Path = FieldPath<EventFormValues>;

const blankLot = (): LotValues => ({ nome: '', preco_inscricao: '', ate_data: '', ate_inscricoes: '' });
const blankCategory = (): CategoryValues => ({
  nome_categoria: '',
  preco_inscricao: '',
  capacidade: '100',
  lotes: [],
});
const blankDay = (): DayValues => ({ data: '', categorias: [blankCategory()] });
const blankKitSize = (): KitSizeValues => ({ tamanho: '', capacidade: '' });
const blank: EventFormValues = {
  nome_evento: '',
  organizer: '',
  city: '',
  state: '',
  prazo_inscricao: '',
  hora_evento: '06:00',
  descricao_evento: '',
  regulamento: '',
  imagem_evento: '',
  kit_tamanhos: [],
  kit_local_retirada: '',
  kit_horarios_retirada: '',
  oferece_pcd: false,
  dias_evento: [blankDay()],
};

const text = (n: number | null | undefined) => (n === null || n === undefined ? '' : String(n));
const money = (n: number) => n.toFixed(2).replace('.', ',');

function toValues(e: PainelEvent): EventFormValues {
  return {
    nome_evento: e.nome_evento,
    organizer: e.organizer,
    city: e.city,
    state: e.state,
    prazo_inscricao: e.prazo_inscricao,
    hora_evento: e.hora_evento,
    descricao_evento: e.descricao_evento,
    regulamento: e.regulamento,
    imagem_evento: e.imagem_evento,
    kit_tamanhos: e.kit_tamanhos.map((k) => ({
      id: k.id,
      tamanho: k.tamanho,
      capacidade: text(k.capacidade),
    })),
    kit_local_retirada: e.kit_local_retirada,
    kit_horarios_retirada: e.kit_horarios_retirada,
    oferece_pcd: e.oferece_pcd,
    dias_evento: e.dias_evento.map((d) => ({
      data: d.data,
      categorias: d.categorias.map((c) => ({
        id: c.id,
        nome_categoria: c.nome_categoria,
        preco_inscricao: money(c.preco_inscricao),
        capacidade: text(c.capacidade),
        lotes: (c.lotes ?? []).map((l) => ({
          nome: l.nome,
          preco_inscricao: money(l.preco_inscricao),
          ate_data: l.ate_data ?? '',
          ate_inscricoes: text(l.ate_inscricoes),
        })),
      })),
    })),
  };
}

/** "79,90" → 79.9; an empty or unreadable entry goes as null, so the server names the field. */
const number = (v: string) => {
  const typed = v.trim();
  if (!typed) return null;
  // "1.234,56": dots group thousands when a comma marks the cents.
  const n = Number(typed.includes(',') ? typed.replace(/\./g, '').replace(',', '.') : typed);
  return Number.isNaN(n) ? null : n;
};

function toInput(v: EventFormValues) {
  return {
    ...v,
    kit_tamanhos: v.kit_tamanhos.map((k) => ({
      ...(k.id ? { id: k.id } : {}),
      tamanho: k.tamanho,
      capacidade: number(k.capacidade),
    })),
    dias_evento: v.dias_evento.map((d) => ({
      data: d.data,
      categorias: d.categorias.map((c) => ({
        ...(c.id ? { id: c.id } : {}),
        nome_categoria: c.nome_categoria,
        preco_inscricao: number(c.preco_inscricao),
        capacidade: number(c.capacidade),
        lotes: c.lotes.map((l) => ({
          nome: l.nome,
          preco_inscricao: number(l.preco_inscricao),
          ate_data: l.ate_data || null,
          ate_inscricoes: l.ate_inscricoes.trim() ? number(l.ate_inscricoes) : null,
        })),
      })),
    })),
  };
}

/** A message the server gave for a whole list goes on the list's `root`, where its fieldset shows it. */
const LIST_PATH = /(^dias_evento|^kit_tamanhos|\.categorias|\.lotes)$/;

/** A field's registration with the message it has (the server's, after a refused save). */
type Bind = (path: Path) => ReturnType<UseFormRegister<EventFormValues>> & { error: string | undefined };

/** What is sold and left of each stored category and kit size, as the form was loaded (read-only). */
interface Occupancy {
  categories: Map<number, { vendidas: number; restantes: number }>;
  sizes: Map<number, { vendidas: number; restantes: number }>;
}

function occupancyOf(e: PainelEvent | null): Occupancy {
  return {
    categories: new Map((e?.dias_evento ?? []).flatMap((d) => d.categorias.map((c) => [c.id, c] as const))),
    sizes: new Map((e?.kit_tamanhos ?? []).map((k) => [k.id, k] as const)),
  };
}

interface PartProps {
  control: Control<EventFormValues>;
  bind: Bind;
  errors: FieldErrors<EventFormValues>;
  occupancy: Occupancy;
}

/** "Vendidas: 2 · Restantes: 193" under a stored category's or size's total; nothing for a new one. */
function Sold({
  control,
  name,
  counts,
}: {
  control: Control<EventFormValues>;
  name: `dias_evento.${number}.categorias.${number}.id` | `kit_tamanhos.${number}.id`;
  counts: Occupancy['categories'];
}) {
  const id = useWatch({ control, name });
  const found = id ? counts.get(id) : undefined;
  if (!found) return null;
  return (
    <p className="text-sm text-stone-600 dark:text-stone-400">
      Vendidas: {found.vendidas} · Restantes: {found.restantes}
    </p>
  );
}
const messageAt = (errors: FieldErrors<EventFormValues>, path: string): string | undefined =>
  (get(errors, path) as FieldError | undefined)?.message;

function ListError({ errors, path }: { errors: FieldErrors<EventFormValues>; path: string }) {
  const message = messageAt(errors, `${path}.root`) ?? messageAt(errors, path);
  return message ? <p className="text-sm text-red-700 dark:text-red-400">{message}</p> : null;
}

const removeClass = 'text-sm text-red-700 underline dark:text-red-400';
const addClass = 'justify-self-start text-sm underline';

/** A category's price lots, in order: each ends on a date and/or after a number of registrations. */
function LotFields({ control, bind, errors, day, category }: PartProps & { day: number; category: number }) {
  const base = `dias_evento.${day}.categorias.${category}.lotes` as const;
  const lots = useFieldArray({ control, name: base });
  const where = `da categoria ${category + 1} do dia ${day + 1}`;
  return (
    <fieldset className="mt-2 grid gap-2 rounded border border-dashed border-stone-300 p-2 dark:border-stone-700">
      <legend className="px-1 text-sm font-medium">Lotes {where}</legend>
      {lots.fields.map((lot, l) => (
        <div key={lot.id} className="grid grid-cols-2 items-end gap-2 md:grid-cols-5">
          <FormField
            label={`Nome do lote ${l + 1} ${where}`}
            placeholder={`${l + 1}º lote`}
            {...bind(`${base}.${l}.nome`)}
          />
          <FormField
            label={`Preço do lote ${l + 1} ${where} (R$)`}
            inputMode="decimal"
            {...bind(`${base}.${l}.preco_inscricao`)}
          />
          <FormField
            label={`Lote ${l + 1} ${where} vale até (data)`}
            type="date"
            {...bind(`${base}.${l}.ate_data`)}
          />
          <FormField
            label={`Lote ${l + 1} ${where} vale até (inscrições vendidas)`}
            type="number"
            min={1}
            {...bind(`${base}.${l}.ate_inscricoes`)}
          />
          <button type="button" className={removeClass} onClick={() => lots.remove(l)}>
            Remover lote {l + 1} {where}
          </button>
        </div>
      ))}
      <ListError errors={errors} path={base} />
      <button type="button" className={addClass} onClick={() => lots.append(blankLot())}>
        Adicionar lote {where}
      </button>
    </fieldset>
  );
}

/** One day of the event with its categories (price, places and lots). */
function DayFields({
  control,
  bind,
  errors,
  occupancy,
  day,
  onRemove,
}: PartProps & { day: number; onRemove?: () => void }) {
  const base = `dias_evento.${day}.categorias` as const;
  const categories = useFieldArray({ control, name: base });
  return (
    <fieldset className="grid gap-3 rounded-lg border border-stone-300 p-3 dark:border-stone-700">
      <legend className="px-1 font-semibold">Dia {day + 1}</legend>
      <FormField label={`Data do dia ${day + 1}`} type="date" {...bind(`dias_evento.${day}.data`)} />
      {categories.fields.map((category, k) => (
        <div key={category.id} className="rounded border border-stone-200 p-2 dark:border-stone-800">
          <div className="grid grid-cols-3 gap-2">
            <FormField
              label={`Nome da categoria ${k + 1} do dia ${day + 1}`}
              {...bind(`${base}.${k}.nome_categoria`)}
            />
            <FormField
              label={`Preço da categoria ${k + 1} do dia ${day + 1} (R$)`}
              inputMode="decimal"
              {...bind(`${base}.${k}.preco_inscricao`)}
            />
            <div>
              <FormField
                label={`Total de vagas da categoria ${k + 1} do dia ${day + 1}`}
                type="number"
                min={0}
                {...bind(`${base}.${k}.capacidade`)}
              />
              <Sold control={control} name={`${base}.${k}.id`} counts={occupancy.categories} />
            </div>
          </div>
          <LotFields
            control={control}
            bind={bind}
            errors={errors}
            occupancy={occupancy}
            day={day}
            category={k}
          />
          {categories.fields.length > 1 ? (
            <button type="button" className={`${removeClass} mt-2`} onClick={() => categories.remove(k)}>
              Remover categoria {k + 1} do dia {day + 1}
            </button>
          ) : null}
        </div>
      ))}
      <ListError errors={errors} path={base} />
      <div className="flex gap-4">
        <button type="button" className={addClass} onClick={() => categories.append(blankCategory())}>
          Adicionar categoria ao dia {day + 1}
        </button>
        {onRemove ? (
          <button type="button" className={removeClass} onClick={onRemove}>
            Remover dia {day + 1}
          </button>
        ) : null}
      </div>
    </fieldset>
  );
}

/** The kit's shirt sizes and how many of each; an event without sizes asks for none. */
function KitFields({ control, bind, errors, occupancy }: PartProps) {
  const sizes = useFieldArray({ control, name: 'kit_tamanhos' });
  return (
    <fieldset className="grid gap-3 rounded-lg border border-stone-300 p-3 dark:border-stone-700">
      <legend className="px-1 font-semibold">Kit do atleta</legend>
      {sizes.fields.map((size, i) => (
        <div key={size.id} className="grid grid-cols-3 items-end gap-2">
          <FormField
            label={`Tamanho da camisa ${i + 1}`}
            placeholder="P, M, G…"
            {...bind(`kit_tamanhos.${i}.tamanho`)}
          />
          <div>
            <FormField
              label={`Total de camisas ${i + 1}`}
              type="number"
              min={0}
              {...bind(`kit_tamanhos.${i}.capacidade`)}
            />
            <Sold control={control} name={`kit_tamanhos.${i}.id`} counts={occupancy.sizes} />
          </div>
          <button type="button" className={removeClass} onClick={() => sizes.remove(i)}>
            Remover tamanho {i + 1}
          </button>
        </div>
      ))}
      <ListError errors={errors} path="kit_tamanhos" />
      <button type="button" className={addClass} onClick={() => sizes.append(blankKitSize())}>
        Adicionar tamanho de camisa
      </button>
      <FormField label="Local de retirada do kit" {...bind('kit_local_retirada')} />
      <TextAreaField
        label="Dias e horários de retirada (um por linha)"
        rows={3}
        {...bind('kit_horarios_retirada')}
      />
    </fieldset>
  );
}

/** `/painel/eventos/novo` and `/painel/eventos/:id/editar` (admins): the event, its days, categories, lots and kit. */
export default function EventFormPage() {
  const { id } = useParams();
  const eventId = id ? Number(id) : null;
  const navigate = useNavigate();
  const existing = useEvent(eventId);
  const createEvent = useCreateEvent();
  const updateEvent = useUpdateEvent(eventId);
  const uploadImage = useUploadEventImage();
  const {
    control,
    register,
    handleSubmit,
    reset,
    setError,
    setValue,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<EventFormValues>({ defaultValues: blank });
  const days = useFieldArray({ control, name: 'dias_evento' });
  const [status, setStatus] = useState<{ message: string; tone: 'success' | 'error' } | null>(null);
  // The event as the form was filled from: its version goes back with the save. Background refetches
  // never refill the form (what was typed stays); only opening, saving and "Recarregar" do.
  const [loaded, setLoaded] = useState<PainelEvent | null>(null);
  const [stale, setStale] = useState<string | null>(null);
  const load = (event: PainelEvent) => {
    reset(toValues(event));
    setLoaded(event);
    setStale(null);
  };

  useEffect(() => {
    if (existing.data && loaded?.id !== existing.data.id) {
      reset(toValues(existing.data));
      setLoaded(existing.data);
    }
  }, [existing.data, loaded, reset]);

  const reload = async () => {
    const fresh = await existing.refetch();
    if (fresh.data) {
      load(fresh.data);
      setStatus(null);
    }
  };

  const upload = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (!file) return;
    try {
      const { url } = await uploadImage.mutateAsync(file);
      setValue('imagem_evento', url);
    } catch (error) {
      setStatus({ message: errorMessage(error), tone: 'error' });
    }
  };

  const submit = handleSubmit(async (values) => {
    setStatus(null);
    setStale(null);
    try {
      if (eventId) {
        if (!loaded) return;
        const saved = await updateEvent.mutateAsync({ ...toInput(values), versao: loaded.versao });
        load(saved);
        setStatus({ message: 'Evento salvo.', tone: 'success' });
        return;
      }
      const created = await createEvent.mutateAsync(toInput(values));
      setStatus({ message: 'Evento salvo.', tone: 'success' });
      navigate(`/painel/eventos/${created.id}/editar`, { replace: true });
    } catch (error) {
      // Someone saved first: keep what was typed and offer the current version.
      if (isStaleVersion(error)) {
        setStale(errorMessage(error));
        return;
      }
      const fields = error instanceof ApiRequestError ? (error.body?.errors ?? {}) : {};
      for (const [path, message] of Object.entries(fields)) {
        setError((LIST_PATH.test(path) ? `${path}.root` : path) as Path, { type: 'server', message });
      }
      setStatus({ message: errorMessage(error), tone: 'error' });
    }
  });

  const image = watch('imagem_evento');
  const bind: Bind = (path) => ({ error: messageAt(errors, path), ...register(path) });
  const parts = { control, bind, errors, occupancy: occupancyOf(loaded) };
  return (
    <section className="max-w-3xl">
      <p className="mb-2">
        <Link to="/painel/eventos" className={linkClass}>
          ← Eventos
        </Link>
      </p>
      <h1 className="mb-4 text-2xl font-bold">{eventId ? 'Editar evento' : 'Novo evento'}</h1>
      <form onSubmit={(e) => void submit(e)} noValidate className="grid gap-4">
        <FormField label="Nome do evento" {...bind('nome_evento')} />
        <FormField label="Organizador" {...bind('organizer')} />
        <div className="grid grid-cols-2 gap-4 md:grid-cols-4">
          <FormField label="Cidade" {...bind('city')} />
          <FormField label="UF" maxLength={2} {...bind('state')} />
          <FormField label="Prazo de inscrição" type="date" {...bind('prazo_inscricao')} />
          <FormField label="Horário" type="time" {...bind('hora_evento')} />
        </div>
        <TextAreaField label="Descrição" rows={4} {...bind('descricao_evento')} />
        <TextAreaField label="Regulamento" rows={8} {...bind('regulamento')} />
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
          {image ? <img src={image} alt="Imagem do evento" className="mt-2 max-h-40 rounded" /> : null}
          {errors.imagem_evento?.message ? (
            <p className="text-sm text-red-700 dark:text-red-400">{errors.imagem_evento.message}</p>
          ) : null}
        </div>
        <label className="flex items-center gap-2">
          <input type="checkbox" {...register('oferece_pcd')} />
          Oferece inscrição como pessoa com deficiência (PCD)
        </label>
        <KitFields {...parts} />
        {days.fields.map((day, i) => (
          <DayFields
            key={day.id}
            {...parts}
            day={i}
            {...(days.fields.length > 1 ? { onRemove: () => days.remove(i) } : {})}
          />
        ))}
        <button
          type="button"
          className={`${secondaryButtonClass} justify-self-start`}
          onClick={() => days.append(blankDay())}
        >
          Adicionar dia
        </button>
        <ListError errors={errors} path="dias_evento" />
        <FormStatus message={status?.message ?? null} tone={status?.tone ?? 'success'} />
        {stale ? (
          <StaleVersionAlert message={stale} reloadLabel="Recarregar o evento" onReload={reload} />
        ) : null}
        <button type="submit" disabled={isSubmitting} className={`${primaryButtonClass} justify-self-start`}>
          Salvar evento
        </button>
      </form>
    </section>
  );
}
