import type { Event } from '@passada/core/contracts/events';
import { formatIsoDateBR, formatRegistrationPrice } from '@passada/core/events';
import { reaisToCents } from '@passada/core/money';
import { describeAgeLimits } from '@passada/core/race-rules';
import type { Selection } from '../utils/selection.ts';

interface CategoryPickerProps {
  event: Event;
  selection: Selection;
  onToggle(day: string, categoryId: number): void;
  /** Every category disabled (the page is not interactive yet). */
  disabled?: boolean;
}

/**
 * Categories per day as toggle buttons (docs/product.md §4): one per day; sold-out ones and all of a closed
 * event are disabled.
 */
export function CategoryPicker({ event, selection, onToggle, disabled = false }: CategoryPickerProps) {
  const open = event.inscricoes_abertas;
  return (
    <div className="flex flex-col gap-6">
      {event.dias_evento.map((day) => (
        <fieldset key={day.data}>
          <legend className="mb-2 font-semibold">Dia {formatIsoDateBR(day.data)}</legend>
          <div className="flex flex-wrap gap-3">
            {day.categorias.map((category) => {
              // The API leaves out places a waitlist holds (docs/decisions/0047).
              const soldOut = category.quantidade_disponivel <= 0;
              // A relay is bought whole by its team (docs/decisions/0078), never by one runner here.
              const relay = category.revezamento;
              const pressed = selection[day.data] === category.id;
              // The next lot's price, when one follows: shown and part of the button's name.
              const next =
                category.proximo_preco && !soldOut
                  ? formatRegistrationPrice(reaisToCents(category.proximo_preco.preco))
                  : null;
              const price = formatRegistrationPrice(reaisToCents(category.preco_inscricao));
              const ages = describeAgeLimits({
                minAge: category.idade_minima ?? null,
                maxAge: category.idade_maxima ?? null,
              });
              return (
                <button
                  key={category.id}
                  type="button"
                  aria-pressed={pressed}
                  disabled={disabled || !open || soldOut || Boolean(relay)}
                  onClick={() => onToggle(day.data, category.id)}
                  className={`flex min-w-36 flex-col items-start rounded-lg border-2 px-4 py-2 text-left transition focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:cursor-not-allowed disabled:opacity-60 ${
                    pressed
                      ? 'border-brand-700 bg-brand-700 text-white'
                      : 'border-stone-300 bg-white hover:border-brand-600 dark:border-stone-700 dark:bg-stone-900'
                  }`}
                >
                  {/* The visible lines, one block each, are the button's name: nothing is named that is
                      not shown (axe's label-content-name-mismatch), and the lines are read apart. */}
                  {[
                    { text: category.nome_categoria, className: 'font-bold' },
                    { text: price, className: '' },
                    ages ? { text: ages, className: 'text-sm first-letter:uppercase' } : null,
                    category.lote_atual
                      ? { text: category.lote_atual.descricao, className: 'text-sm' }
                      : null,
                    next ? { text: `Depois: ${next}`, className: 'text-sm opacity-80' } : null,
                    relay
                      ? {
                          text: `Revezamento de ${relay} corredores: preço por equipe; a equipe compra em Minhas equipes`,
                          className: 'text-sm',
                        }
                      : null,
                    soldOut ? { text: 'Esgotado', className: 'text-sm font-semibold uppercase' } : null,
                  ]
                    .filter((line) => line !== null)
                    .map((line) => (
                      <span key={line.text} className={`block ${line.className}`}>
                        {line.text}
                      </span>
                    ))}
                </button>
              );
            })}
          </div>
        </fieldset>
      ))}
    </div>
  );
}
