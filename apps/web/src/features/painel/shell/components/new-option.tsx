import { NewColorSchema, NewSizeSchema } from '@passada/core/contracts/painel';
import { type KeyboardEvent, useState } from 'react';
import { FormField, secondaryButtonClass } from '../../../../components/form-field.tsx';
import { ApiRequestError } from '../../../../lib/api.ts';
import { type NamedOption, useCreateColor, useCreateSize } from '../api/options.ts';
import { errorMessage } from '../utils/error-message.ts';

const WORDS = {
  cor: { name: 'Nova cor', add: 'Adicionar cor', added: 'Cor criada e marcada', save: 'incluí-la' },
  tamanho: {
    name: 'Novo tamanho',
    add: 'Adicionar tamanho',
    added: 'Tamanho criado e marcado',
    save: 'incluí-lo',
  },
} as const;

/**
 * Creates a colour or a size from the product form, which then ticks it. It sits inside the product's
 * form, so it has no form of its own: its button (and Enter in its field) sends only this.
 */
export function NewOption({
  kind,
  onCreated,
}: {
  kind: 'cor' | 'tamanho';
  onCreated(option: NamedOption): void;
}) {
  const createColor = useCreateColor();
  const createSize = useCreateSize();
  const [name, setName] = useState('');
  const [hex, setHex] = useState('#888888');
  const [error, setError] = useState<string | undefined>();
  const [done, setDone] = useState('');
  const words = WORDS[kind];

  const add = async () => {
    setDone('');
    // The same rules as the server's, so the message is the same whether it comes from here or there.
    const parsed =
      kind === 'cor' ? NewColorSchema.safeParse({ name, hex }) : NewSizeSchema.safeParse({ name });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    try {
      const created =
        kind === 'cor'
          ? await createColor.mutateAsync({ name: parsed.data.name, hex })
          : await createSize.mutateAsync({ name: parsed.data.name });
      setError(undefined);
      setName('');
      setDone(`${words.added}: ${created.name}. Salve o produto para ${words.save}.`);
      onCreated(created);
    } catch (err) {
      setError(
        err instanceof ApiRequestError && err.body?.errors?.name ? err.body.errors.name : errorMessage(err),
      );
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    void add();
  };

  return (
    <div className="flex flex-wrap items-end gap-2">
      <div className="w-56">
        <FormField
          label={words.name}
          value={name}
          maxLength={40}
          error={error}
          onChange={(e) => setName(e.target.value)}
          onKeyDown={onKeyDown}
        />
      </div>
      {kind === 'cor' ? (
        <label className="flex flex-col gap-1 text-sm font-medium">
          Tom da cor nova
          <input
            type="color"
            value={hex}
            onChange={(e) => setHex(e.target.value)}
            className="h-10 w-14 rounded border border-stone-300 dark:border-stone-700"
          />
        </label>
      ) : null}
      <button type="button" onClick={add} className={secondaryButtonClass}>
        {words.add}
      </button>
      {done ? (
        <p role="status" className="basis-full text-sm text-green-800 dark:text-green-300">
          {done}
        </p>
      ) : null}{' '}
    </div>
  );
}
