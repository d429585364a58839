import type { Option } from '../utils/options.ts';

interface OptionButtonsProps {
  label: string;
  options: Option[];
  selected: number | null;
  onSelect(option: Option): void;
  swatches?: boolean;
  /** Every choice disabled (the page is not interactive yet). */
  disabled?: boolean;
}

/** Colour or size choice: toggle buttons with aria-pressed, grouped under a visible label. */
export function OptionButtons({
  label,
  options,
  selected,
  onSelect,
  swatches,
  disabled,
}: OptionButtonsProps) {
  return (
    <fieldset disabled={disabled}>
      <legend className="mb-2 font-semibold">
        {label}
        {selected !== null && (
          <span className="font-normal text-stone-700 dark:text-stone-300">
            : {options.find((o) => o.id === selected)?.name}
          </span>
        )}
      </legend>
      <div className="flex flex-wrap gap-2">
        {options.map((option) => {
          const pressed = option.id === selected;
          return (
            <button
              key={option.id}
              type="button"
              aria-pressed={pressed}
              onClick={() => onSelect(option)}
              className={`flex min-h-11 min-w-11 items-center gap-2 rounded-lg border-2 px-3 py-1.5 font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 ${pressed ? 'border-brand-700 bg-brand-50 text-brand-800 dark:bg-stone-800 dark:text-brand-100' : 'border-stone-300 hover:border-stone-500 dark:border-stone-700'}`}
            >
              {swatches && option.hex && (
                <span
                  aria-hidden="true"
                  className="h-5 w-5 rounded-full border border-stone-400"
                  style={{ backgroundColor: option.hex }}
                />
              )}
              {option.name}
            </button>
          );
        })}
      </div>
    </fieldset>
  );
}
