import { type ChangeEvent, type FormEvent, useState } from 'react';
import { FormStatus, primaryButtonClass, SelectField } from '../../../../components/form-field.tsx';
import { useEvents } from '../../shell/api/event-lists.ts';
import { useProducts } from '../../shell/api/product-lists.ts';
import { errorMessage } from '../../shell/utils/error-message.ts';
import { useResultLinks, useSaveResultLinks } from '../api/results.ts';

/**
 * After the finish line, back to the shop (docs/decisions/0064, later): the finisher shirt (a product of
 * the catalogue, offered in each finisher's kit size while it has stock) and the next edition (an event
 * after this one), shown on every finisher's page and in the results e-mail. "Nenhuma" takes either off.
 */
export function ResultLinksForm({ eventId, className }: { eventId: number; className: string }) {
  const links = useResultLinks(eventId);
  const save = useSaveResultLinks(eventId);
  const products = useProducts();
  const events = useEvents();
  // Untouched (null): what is saved.
  const [shirt, setShirt] = useState<string | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const shirtValue = shirt ?? String(links.data?.camisa_finisher_id ?? '');
  const nextValue = next ?? String(links.data?.proxima_edicao_id ?? '');
  const eventDate = events.data?.find((e) => e.id === eventId)?.start_data_evento;
  const later = (events.data ?? []).filter(
    (e) => e.id !== eventId && (!eventDate || e.start_data_evento > eventDate),
  );

  const choose = (set: (value: string) => void) => (e: ChangeEvent<HTMLSelectElement>) => {
    setSaved(false);
    set(e.target.value);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    const done = await save
      .mutateAsync({
        camisa_finisher_id: shirtValue ? Number(shirtValue) : null,
        proxima_edicao_id: nextValue ? Number(nextValue) : null,
      })
      .catch(() => null);
    if (!done) return;
    setShirt(null);
    setNext(null);
    setSaved(true);
  };

  return (
    <form onSubmit={submit} className={className} aria-label="Depois da chegada">
      <h2 className="mb-2 font-semibold">4. Depois da chegada</h2>
      <p className="mb-2 text-sm">
        A página de cada concluinte e o e-mail de resultado oferecem a camisa finisher no tamanho do kit e a
        inscrição na próxima edição.
      </p>
      {links.isError ? <FormStatus message={errorMessage(links.error)} tone="error" /> : null}
      <SelectField label="Camisa finisher" value={shirtValue} onChange={choose(setShirt)}>
        <option value="">Nenhuma</option>
        {products.data?.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name}
          </option>
        ))}
      </SelectField>
      <SelectField label="Próxima edição" value={nextValue} onChange={choose(setNext)}>
        <option value="">Nenhuma</option>
        {later.map((ev) => (
          <option key={ev.id} value={ev.id}>
            {`${ev.nome_evento} (${ev.start_data_evento.split('-').reverse().join('/')})`}
          </option>
        ))}
      </SelectField>
      <button
        type="submit"
        className={`${primaryButtonClass} mt-2`}
        disabled={save.isPending || links.isPending}
      >
        Salvar camisa e próxima edição
      </button>
      <FormStatus message={save.error ? errorMessage(save.error) : null} tone="error" />
      <FormStatus message={saved ? 'Camisa e próxima edição salvas.' : null} tone="success" />
    </form>
  );
}
