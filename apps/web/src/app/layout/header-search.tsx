import { type FormEvent, useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { useHydrated } from '../../lib/hydration.ts';

export function SearchIcon({ size }: { size: 20 | 24 }) {
  return (
    <svg
      aria-hidden="true"
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
    >
      <circle cx="11" cy="11" r="7" />
      <path d="m20 20-4-4" />
    </svg>
  );
}

/** The product search from any page: opens /pesquisa?q=… (the filters live there). */
export function HeaderSearch({ className, onSearch }: { className?: string; onSearch?: () => void }) {
  const navigate = useNavigate();
  const inputId = useId();
  const [text, setText] = useState('');
  // What is typed before the app has taken the page over would not reach the search: wait until then.
  const hydrated = useHydrated();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const q = text.trim();
    navigate(q ? `/pesquisa?q=${encodeURIComponent(q)}` : '/pesquisa');
    onSearch?.();
  };

  return (
    <search className={className}>
      <form onSubmit={submit} className="flex items-center">
        <label htmlFor={inputId} className="sr-only">
          Pesquisar produtos
        </label>
        <input
          id={inputId}
          type="search"
          name="q"
          value={text}
          disabled={!hydrated}
          onChange={(e) => setText(e.target.value)}
          placeholder="Pesquisar"
          className="w-full min-w-0 rounded-l-lg border border-r-0 border-stone-300 bg-white px-3 py-1.5 dark:border-stone-700 dark:bg-stone-900"
        />
        <button
          type="submit"
          disabled={!hydrated}
          aria-label="Buscar"
          className="rounded-r-lg border border-brand-700 bg-brand-700 px-2.5 py-1.5 text-white hover:bg-brand-800"
        >
          <SearchIcon size={20} />
        </button>
      </form>
    </search>
  );
}
