import type { PainelEvent } from '@passada/core/contracts/painel';
import {
  type Control,
  type FieldError,
  type FieldErrors,
  get,
  type UseFormRegister,
  useFieldArray,
  useWatch,
} from 'react-hook-form';
import {
  FormField,
  SelectField,
  secondaryButtonClass,
  TextAreaField,
} from '../../../../components/form-field.tsx';
import {
  blankCategory,
  blankKitSize,
  blankLot,
  type EventFormValues,
  type Path,
} from '../utils/event-form-values.ts';

/** The event form's parts: its lists (days, categories, lots, kit sizes) and their messages. */
/** A message the server gave for a whole list goes on the list's `root`, where its fieldset shows it. */
export const LIST_PATH = /(^dias_evento|^kit_tamanhos|\.categorias|\.lotes)$/;

/** A field's registration with the message it has (the server's, after a refused save). */
export type Bind = (
  path: Path,
) => ReturnType<UseFormRegister<EventFormValues>> & { error: string | undefined };

/** What is sold and left of each stored category and kit size, as the form was loaded (read-only). */
export interface Occupancy {
  categories: Map<number, { vendidas: number; restantes: number }>;
  sizes: Map<number, { vendidas: number; restantes: number }>;
}

export function occupancyOf(e: PainelEvent | null): Occupancy {
  return {
    categories: new Map((e?.dias_evento ?? []).flatMap((d) => d.categorias.map((c) => [c.id, c] as const))),
    sizes: new Map((e?.kit_tamanhos ?? []).map((k) => [k.id, k] as const)),
  };
}

export interface PartProps {
  control: Control<EventFormValues>;
  bind: Bind;
  errors: FieldErrors<EventFormValues>;
  occupancy: Occupancy;
}

/** "Vendidas: 2 · Restantes: 193" under a stored category's or size's total; nothing for a new one. */
export function Sold({
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
export const messageAt = (errors: FieldErrors<EventFormValues>, path: string): string | undefined =>
  (get(errors, path) as FieldError | undefined)?.message;

export function ListError({ errors, path }: { errors: FieldErrors<EventFormValues>; path: string }) {
  const message = messageAt(errors, `${path}.root`) ?? messageAt(errors, path);
  return message ? <p className="text-sm text-red-700 dark:text-red-400">{message}</p> : null;
}

export const removeClass = 'text-sm text-red-700 underline dark:text-red-400';
export const addClass = 'justify-self-start text-sm underline';

/** A category's price lots, in order: each ends on a date and/or after a number of registrations. */
export function LotFields({
  control,
  bind,
  errors,
  day,
  category,
}: PartProps & { day: number; category: number }) {
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
export function DayFields({
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
            <FormField
              label={`Idade mínima da categoria ${k + 1} do dia ${day + 1} (anos, no dia da prova)`}
              type="number"
              min={0}
              max={120}
              {...bind(`${base}.${k}.idade_minima`)}
            />
            <FormField
              label={`Idade máxima da categoria ${k + 1} do dia ${day + 1} (anos, vazio: sem limite)`}
              type="number"
              min={0}
              max={120}
              {...bind(`${base}.${k}.idade_maxima`)}
            />
            <SelectField
              label={`Revezamento da categoria ${k + 1} do dia ${day + 1}`}
              {...bind(`${base}.${k}.revezamento`)}
            >
              <option value="">Não: inscrição individual</option>
              <option value="2">Dupla (2 corredores)</option>
              <option value="4">Quarteto (4 corredores)</option>
              <option value="8">Octeto (8 corredores)</option>
            </SelectField>
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
export function KitFields({ control, bind, errors, occupancy }: PartProps) {
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

/**
 * The event's own regulation and termo, each with a button that fills it with the default built from the
 * form's categories (docs/decisions/0038); a changed termo is a new version for those who register next.
 */
export function RulesTexts({
  bind,
  onGenerate,
}: {
  bind: Bind;
  onGenerate: (field: 'regulamento' | 'termo_responsabilidade') => void;
}) {
  return (
    <>
      <TextAreaField label="Regulamento" rows={8} {...bind('regulamento')} />
      <button
        type="button"
        className={`${secondaryButtonClass} justify-self-start`}
        onClick={() => onGenerate('regulamento')}
      >
        Gerar regulamento a partir das categorias
      </button>
      <TextAreaField
        label="Termo de responsabilidade (vazio: o termo padrão da loja)"
        rows={6}
        {...bind('termo_responsabilidade')}
      />
      <p className="-mt-3 text-sm text-stone-600 dark:text-stone-400">
        Mudar o termo cria uma nova versão: quem se inscrever depois aceita o texto novo.
      </p>
      <button
        type="button"
        className={`${secondaryButtonClass} justify-self-start`}
        onClick={() => onGenerate('termo_responsabilidade')}
      >
        Gerar termo a partir das categorias
      </button>
    </>
  );
}
