import { useState } from 'react';
import { secondaryButtonClass } from './button-classes.ts';

/**
 * Copies `link` to the clipboard; `said` tells how it went ("Link copiado.", or to copy it by hand when
 * the browser refuses), for a live region beside the button.
 */
export function useCopyLink(link: string) {
  const [said, setSaid] = useState<string | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      setSaid('Link copiado.');
    } catch {
      setSaid('Não foi possível copiar: selecione o link e copie.');
    }
  };
  return { said, copy };
}

/**
 * A link shown whole (so it can be selected by hand) with a button that copies it; `label` names the
 * button ("Copiar link de indicação"). The result is said beside it, in a live region.
 */
export function CopyLink({ link, label }: { link: string; label: string }) {
  const { said, copy } = useCopyLink(link);
  return (
    <>
      <p className="mt-1 break-all">{link}</p>
      <div className="mt-1 flex flex-wrap items-center gap-2">
        <button type="button" className={secondaryButtonClass} onClick={() => void copy()}>
          {label}
        </button>
        <span role="status">{said}</span>
      </div>
    </>
  );
}
