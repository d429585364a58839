import { formatIsoDateBR } from '@passada/core/events';
import { useCheckinEvents } from '../api/event-lists.ts';

/** The events a check-in volunteer is assigned to, as checkboxes (docs/decisions/0032). */
export function EventCheckboxes({
  legend,
  value,
  onChange,
  error,
}: {
  legend: string;
  value: number[];
  onChange: (ids: number[]) => void;
  error?: string | undefined;
}) {
  const events = useCheckinEvents();
  const toggle = (id: number, on: boolean) =>
    onChange(on ? [...value, id].sort((a, b) => a - b) : value.filter((v) => v !== id));
  return (
    <fieldset className="flex flex-col gap-1">
      <legend className="text-sm font-medium">{legend}</legend>
      {events.data?.map((e) => (
        <label key={e.id} className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            checked={value.includes(e.id)}
            onChange={(ev) => toggle(e.id, ev.target.checked)}
          />
          {e.nome_evento} ({formatIsoDateBR(e.start_data_evento)})
        </label>
      ))}
      {value.length === 0 ? (
        <p className="text-sm text-stone-600 dark:text-stone-400">
          Nenhum evento: a pessoa não vê nenhum check-in.
        </p>
      ) : null}
      {error ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
