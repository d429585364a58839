import type { PainelEvent, PainelPhoto } from '@passada/core/contracts/painel';
import { defaultRegulation, defaultTerms } from '@passada/core/race-rules';
import { type ChangeEvent, type FormEvent, useEffect, useState } from 'react';
import { useFieldArray, useForm } from 'react-hook-form';
import { Link, useNavigate, useParams } from 'react-router';
import {
  FormField,
  FormStatus,
  linkClass,
  primaryButtonClass,
  secondaryButtonClass,
  TextAreaField,
} from '../../../../components/form-field.tsx';
import { ApiRequestError } from '../../../../lib/api.ts';
import { usePhotoProcessing } from '../../shell/api/photos.ts';
import { isStaleVersion, StaleVersionAlert } from '../../shell/components/stale-version-alert.tsx';
import { errorMessage } from '../../shell/utils/error-message.ts';
import { useCreateEvent, useEvent, useUpdateEvent, useUploadEventImage } from '../api/events.ts';
import { EventActions } from '../components/event-actions.tsx';
import { EventAfterSaleFields } from '../components/event-after-sale-fields.tsx';
import {
  type Bind,
  DayFields,
  KitFields,
  LIST_PATH,
  ListError,
  messageAt,
  occupancyOf,
  RulesTexts,
} from '../components/event-form-fields.tsx';
import { EventWaitlist } from '../components/event-waitlist.tsx';
import {
  blank,
  blankDay,
  type EventFormValues,
  factsOf,
  type Path,
  toInput,
  toValues,
} from '../utils/event-form-values.ts';

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
    clearErrors,
    getValues,
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

  // Closing or reopening registrations changes no field of the form (nor its version): only the state shown.
  const setLoadedState = (event: PainelEvent) =>
    setLoaded((current) =>
      current ? { ...current, inscricoes_fechadas: event.inscricoes_fechadas } : event,
    );

  const reload = async () => {
    const fresh = await existing.refetch();
    if (fresh.data) {
      load(fresh.data);
      setStatus(null);
    }
  };

  // The server answers an upload "processando" and resizes it in its queue; the field takes the URL once
  // the photo is ready, so an event never points at files that do not exist yet.
  const [pendingImage, setPendingImage] = useState<PainelPhoto | null>(null);
  const processed = usePhotoProcessing(pendingImage);
  useEffect(() => {
    const photo = processed.data;
    if (!photo || photo.status === 'processando') return;
    if (photo.status === 'pronta') setValue('imagem_evento', photo.url);
    else setStatus({ message: 'Não foi possível processar a imagem. Envie outra.', tone: 'error' });
    setPendingImage(null);
  }, [processed.data, setValue]);

  const upload = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (!file) return;
    try {
      setPendingImage(await uploadImage.mutateAsync(file));
      setStatus(null);
    } catch (error) {
      setStatus({ message: errorMessage(error), tone: 'error' });
    }
  };

  // The server's messages go on paths the browser does not validate (a list's root, a field it does not
  // check): left in place they would stop every later save. Each save starts clean and the server judges.
  const submit = (e: FormEvent<HTMLFormElement>) => {
    clearErrors();
    return save(e);
  };
  const save = handleSubmit(async (values) => {
    if (pendingImage) {
      setStatus({ message: 'Aguarde a imagem do evento terminar de processar.', tone: 'error' });
      return;
    }
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

  /** Fills the regulation or the termo with the default built from what the form holds now. */
  const generate = (field: 'regulamento' | 'termo_responsabilidade') => {
    const values = getValues();
    if (!values.prazo_inscricao || values.dias_evento.some((d) => !d.data)) {
      setStatus({
        message: 'Preencha o prazo de inscrição e as datas dos dias antes de gerar o texto.',
        tone: 'error',
      });
      return;
    }
    const facts = factsOf(values);
    setValue(field, field === 'regulamento' ? defaultRegulation(facts) : defaultTerms(facts), {
      shouldDirty: true,
    });
    setStatus({
      message: `${field === 'regulamento' ? 'Regulamento' : 'Termo'} gerado a partir das categorias: revise e salve.`,
      tone: 'success',
    });
  };

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
      {loaded ? <EventActions event={loaded} onChange={setLoadedState} /> : null}
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
        <RulesTexts bind={bind} onGenerate={generate} />
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
          {pendingImage ? (
            <p role="status" className="mt-2 text-sm">
              Processando…
            </p>
          ) : null}
          {image ? <img src={image} alt="Imagem do evento" className="mt-2 max-h-40 rounded" /> : null}
          {errors.imagem_evento?.message ? (
            <p className="text-sm text-red-700 dark:text-red-400">{errors.imagem_evento.message}</p>
          ) : null}
        </div>
        <label className="flex items-center gap-2">
          <input type="checkbox" {...register('oferece_pcd')} />
          Oferece inscrição como pessoa com deficiência (PCD)
        </label>
        <fieldset className="grid gap-3 rounded-lg border border-stone-300 p-3 dark:border-stone-700">
          <legend className="px-1 font-semibold">Nota fiscal das inscrições (NFS-e)</legend>
          <p className="text-sm text-stone-600 dark:text-stone-400">
            Deixe em branco para usar os códigos das Configurações fiscais da loja.
          </p>
          <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
            <FormField
              label="Código de tributação nacional (cTribNac)"
              inputMode="numeric"
              placeholder="12.11.01"
              {...bind('nfse_codigo_tributacao_nacional')}
            />
            <FormField
              label="Código NBS"
              inputMode="numeric"
              placeholder="1.2603.11.00"
              {...bind('nfse_nbs')}
            />
          </div>
        </fieldset>
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
      {eventId ? (
        <>
          <EventAfterSaleFields
            eventId={eventId}
            categories={(loaded?.dias_evento ?? []).flatMap((d) =>
              d.categorias.map((c) => ({ id: c.id, nome: c.nome_categoria })),
            )}
          />
          <EventWaitlist eventId={eventId} />
        </>
      ) : null}
    </section>
  );
}
