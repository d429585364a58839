import { useState } from 'react';
import { useHydrated } from '../../lib/hydration.ts';
import { StorageKeys, writeString } from '../../lib/storage.ts';

function isDark(): boolean {
  return document.documentElement.classList.contains('dark');
}

/** Light by default; public/theme-init.js applies the saved choice before the first paint (spec §4). */
export function ThemeToggle() {
  // The server does not know the saved theme: the button shows it once the page runs in the browser.
  const hydrated = useHydrated();
  const [stored, setDark] = useState(() => typeof document !== 'undefined' && isDark());
  const dark = hydrated && stored;
  const toggle = () => {
    const next = !dark;
    document.documentElement.classList.toggle('dark', next);
    try {
      writeString(StorageKeys.theme, next ? 'dark' : 'light');
    } catch {
      // Private mode may refuse storage; the theme still switches for this visit.
    }
    setDark(next);
  };
  return (
    <button
      type="button"
      // Until the app runs, a tap would be lost.
      disabled={!hydrated}
      onClick={toggle}
      aria-pressed={dark}
      aria-label="Tema escuro"
      title={dark ? 'Mudar para o tema claro' : 'Mudar para o tema escuro'}
      className="rounded-full p-2 hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-brand-700 dark:hover:bg-stone-800"
    >
      {dark ? (
        <svg
          aria-hidden="true"
          width="22"
          height="22"
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
        >
          <circle cx="12" cy="12" r="4.5" />
          <path d="M12 2v2.5M12 19.5V22M2 12h2.5M19.5 12H22M4.9 4.9l1.8 1.8M17.3 17.3l1.8 1.8M4.9 19.1l1.8-1.8M17.3 6.7l1.8-1.8" />
        </svg>
      ) : (
        <svg
          aria-hidden="true"
          width="22"
          height="22"
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
        >
          <path d="M20.5 14.5A8.5 8.5 0 0 1 9.5 3.5a8.5 8.5 0 1 0 11 11Z" />
        </svg>
      )}
    </button>
  );
}
