import { type ChangeEvent, useState } from 'react';
import { FormStatus, secondaryButtonClass } from '../../../../components/form-field.tsx';
import { errorMessage } from '../../shell/utils/error-message.ts';
import { useChangeMailLogo, useMailLogo } from '../api/messages.ts';

/** The address every e-mail's header shows (the logo staff sent, or the shop's default mark). */
const LOGO_PATH = '/api/media/marca/logo-email.png';

/**
 * "Logo dos e-mails" (decision 0045, later): the mark beside the shop's name at the top of every e-mail.
 * Any photo becomes a 128 px square PNG on the server; the e-mails already sent show the new one too.
 */
export function MailLogoSection() {
  const logo = useMailLogo();
  const change = useChangeMailLogo();
  // A new query string after each change, so this page shows the new picture at once.
  const [version, setVersion] = useState(0);
  const [status, setStatus] = useState<{ tone: 'success' | 'error'; message: string } | null>(null);

  const apply = async (file: File | null, done: string) => {
    setStatus(null);
    try {
      await change.mutateAsync(file);
      setVersion((v) => v + 1);
      setStatus({ tone: 'success', message: done });
    } catch (error) {
      setStatus({ tone: 'error', message: errorMessage(error) });
    }
  };
  const pick = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (file) void apply(file, 'Logo dos e-mails salvo.');
  };

  return (
    <section aria-labelledby="logo-emails" className="mb-10">
      <h2 id="logo-emails" className="mb-2 text-xl font-semibold">
        Logo dos e-mails
      </h2>
      <p className="mb-3 max-w-3xl text-sm text-stone-600 dark:text-stone-400">
        Aparece ao lado do nome da loja no topo de todo e-mail. Envie uma imagem quadrada (JPEG, PNG, WebP ou
        HEIC); a loja a reduz para 128 × 128 pixels, com fundo transparente.
      </p>
      <div className="flex flex-wrap items-center gap-4">
        <img
          src={`${LOGO_PATH}?v=${version}`}
          alt={logo.data?.personalizado ? 'Logo atual dos e-mails' : 'Logo padrão dos e-mails'}
          width={64}
          height={64}
          className="size-16 rounded border border-stone-200 bg-white object-contain dark:border-stone-700"
        />
        <label className="grid gap-1 text-sm font-medium">
          Enviar novo logo
          <input
            type="file"
            accept="image/jpeg,image/png,image/webp,image/heic,.heic"
            onChange={pick}
            disabled={change.isPending}
          />
        </label>
        {logo.data?.personalizado ? (
          <button
            type="button"
            className={secondaryButtonClass}
            disabled={change.isPending}
            onClick={() => void apply(null, 'Os e-mails voltaram ao logo padrão.')}
          >
            Voltar ao logo padrão
          </button>
        ) : null}
      </div>
      <FormStatus message={status?.message ?? null} tone={status?.tone ?? 'success'} />
    </section>
  );
}
