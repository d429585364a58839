import { useState } from 'react';
import { SelectField } from '../../../components/form-field.tsx';
import { useMessagePreviews } from '../api/messages.ts';
import { errorMessage } from '../utils/error-message.ts';

/**
 * Permission `equipe`: every message the shop sends, rendered with demo data by the same code the
 * sending jobs run. The HTML part shows in a sandboxed frame (no scripts, no links that navigate the
 * back office), the text part beside it as mail programs without HTML show it.
 */
export default function MessagesPage() {
  const previews = useMessagePreviews();
  const [chosen, setChosen] = useState('');
  const list = previews.data ?? [];
  const current = list.find((p) => p.tipo === chosen) ?? list[0];
  return (
    <section>
      <h1 className="mb-2 text-2xl font-bold">Mensagens</h1>
      <p className="mb-4 max-w-3xl text-sm text-stone-600 dark:text-stone-400">
        Prévia de cada e-mail que a loja envia, com dados de exemplo: a versão em HTML (como aparece nos
        programas de e-mail, no modo claro ou escuro) e a versão em texto, que vai junto em toda mensagem.
      </p>
      {previews.isError ? <p role="alert">{errorMessage(previews.error)}</p> : null}
      {previews.isPending ? <p>Carregando…</p> : null}
      {current ? (
        <>
          <div className="mb-4 max-w-md">
            <SelectField
              label="Mensagem"
              value={current.tipo}
              onChange={(e: { target: { value: string } }) => setChosen(e.target.value)}
            >
              {list.map((p) => (
                <option key={p.tipo} value={p.tipo}>
                  {p.nome}
                </option>
              ))}
            </SelectField>
          </div>
          {current.mensagens.map((m, index) => (
            <article
              key={`${current.tipo}-${m.para}`}
              aria-label={`${current.nome}: mensagem ${index + 1} de ${current.mensagens.length}`}
              className="mb-8"
            >
              <dl className="mb-3 grid max-w-3xl grid-cols-[auto_1fr] gap-x-3 text-sm">
                <dt className="font-medium">Para</dt>
                <dd>{m.para}</dd>
                <dt className="font-medium">Assunto</dt>
                <dd>{m.assunto}</dd>
                {m.anexos.length ? (
                  <>
                    <dt className="font-medium">Anexos</dt>
                    <dd>{m.anexos.map((a) => a.nome).join(', ')}</dd>
                  </>
                ) : null}
              </dl>
              <div className="grid gap-4 lg:grid-cols-2">
                <div>
                  <h2 className="mb-1 text-lg font-semibold">HTML</h2>
                  <iframe
                    title={`Prévia em HTML: ${m.assunto}`}
                    sandbox=""
                    srcDoc={m.html}
                    className="h-[640px] w-full rounded-md border border-stone-300 bg-white dark:border-stone-700"
                  />
                </div>
                <div>
                  <h2 className="mb-1 text-lg font-semibold">Texto</h2>
                  {/* A scrollable region: focusable so the keyboard can scroll it. */}
                  <section
                    aria-label={`Versão em texto: ${m.assunto}`}
                    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus to scroll by keyboard
                    tabIndex={0}
                    className="h-[640px] overflow-auto rounded-md border border-stone-300 p-3 dark:border-stone-700"
                  >
                    <pre className="whitespace-pre-wrap text-sm">{m.texto}</pre>
                  </section>
                </div>
              </div>
            </article>
          ))}
        </>
      ) : null}
    </section>
  );
}
