import type { NamedOption } from '../api/options.ts';

/** Checkboxes for the colours or sizes a product comes in (a colour shows its swatch). */
export function Choices(props: {
  legend: string;
  options: NamedOption[] | undefined;
  chosen: number[];
  disabled: boolean;
  onChange(ids: number[]): void;
}) {
  return (
    <fieldset className="flex flex-wrap gap-3" disabled={props.disabled}>
      <legend className="mb-1 text-sm font-medium">{props.legend}</legend>
      {props.options?.map((o) => (
        <label key={o.id} className="flex items-center gap-1 text-sm">
          <input
            type="checkbox"
            checked={props.chosen.includes(o.id)}
            onChange={(e) =>
              props.onChange(
                e.target.checked ? [...props.chosen, o.id] : props.chosen.filter((id) => id !== o.id),
              )
            }
          />
          {o.hex ? (
            <span className="inline-block size-3 rounded-full border" style={{ background: o.hex }} />
          ) : null}
          {o.name}
        </label>
      ))}
    </fieldset>
  );
}
