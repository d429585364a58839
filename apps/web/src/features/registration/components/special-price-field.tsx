import { PCD_PROOF_CONSENT } from '@passada/core/contracts/consents';
import type { EventPriceRule } from '@passada/core/contracts/price-rules';
import { formatIsoDateBR, formatRegistrationPrice } from '@passada/core/events';
import { reaisToCents } from '@passada/core/money';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { ApiRequestError } from '../../../lib/api.ts';
import { priceRulesQuery, useUploadProof } from '../api/registrations-api.ts';

/** The special price chosen: its rule and, when it asks one, the proof's token once sent. */
export interface SpecialPrice {
  rule: EventPriceRule;
  proof: string | null;
  /** A PCD document's own consent (health data), given before the file leaves the phone. */
  consent: boolean;
}

interface SpecialPriceFieldProps {
  eventId: number;
  categories: number[];
  value: SpecialPrice | null;
  onChange: (value: SpecialPrice | null) => void;
  disabled?: boolean;
}

/**
 * The event's special prices for the chosen races (docs/decisions/0068): students, teachers, PCD or an
 * organiser's list. Choosing one asks for its proof (a photo or a PDF), sent before paying; the server
 * checks who may take it, prices it and holds its cap. Nothing shows when the races have none.
 */
export function SpecialPriceField({
  eventId,
  categories,
  value,
  onChange,
  disabled,
}: SpecialPriceFieldProps) {
  const rules = useQuery(priceRulesQuery(eventId));
  const upload = useUploadProof();
  const [sent, setSent] = useState<string | null>(null);
  const name = useId();
  const fileId = useId();
  const offered = (rules.data ?? []).filter((r) => categories.includes(r.categoria));
  // A PCD document is health data: its own consent comes before the file is chosen.
  const pcd = value?.rule.publico === 'pcd';
  if (offered.length === 0) return null;
  const pick = (rule: EventPriceRule | null) => {
    setSent(null);
    upload.reset();
    onChange(rule ? { rule, proof: null, consent: false } : null);
  };
  const send = async (file: File | undefined) => {
    if (!file || !value) return;
    setSent(null);
    const answer = await upload.mutateAsync(file).catch(() => null);
    if (answer) {
      onChange({ ...value, proof: answer.comprovante });
      setSent(`Comprovante "${file.name}" enviado.`);
    }
  };
  const uploadError =
    upload.error instanceof ApiRequestError
      ? (upload.error.body?.detail ?? 'Não foi possível enviar o comprovante.')
      : upload.error
        ? 'Não foi possível enviar o comprovante. Tente de novo.'
        : null;
  return (
    <fieldset
      className="mt-6 rounded-xl border border-stone-200 p-4 dark:border-stone-700"
      disabled={disabled}
    >
      <legend className="px-1 text-lg font-semibold">Preço especial</legend>
      <p className="text-sm text-stone-700 dark:text-stone-300">
        A meia-entrada 60+ vale sozinha, pela data de nascimento. Se você tem direito a outro preço, escolha-o
        e envie o comprovante: a organização confere antes do evento; se recusar, você paga a diferença para o
        preço do lote ou cancela com devolução integral, até a largada.
      </p>
      <div className="mt-2 flex flex-col gap-2">
        <label className="flex items-center gap-2">
          <input
            type="radio"
            name={name}
            className="size-4 accent-brand-700"
            checked={value === null}
            onChange={() => pick(null)}
          />
          Preço normal
        </label>
        {offered.map((rule) => (
          <label key={rule.id} className="flex items-start gap-2">
            <input
              type="radio"
              name={name}
              className="mt-1 size-4 accent-brand-700"
              checked={value?.rule.id === rule.id}
              disabled={rule.esgotada}
              onChange={() => pick(rule)}
            />
            <span>
              {rule.nome}: {formatRegistrationPrice(reaisToCents(rule.preco))}
              {rule.esgotada ? ' — vagas esgotadas' : ''}
              {rule.ate ? ` (até ${formatIsoDateBR(rule.ate)})` : ''}
            </span>
          </label>
        ))}
      </div>
      {value?.rule.exige_comprovante ? (
        <div className="mt-3 flex flex-col gap-1">
          <label htmlFor={fileId} className="text-sm font-medium">
            Comprovante de {value.rule.nome} (foto ou PDF)
          </label>
          <p className="text-sm text-stone-600 dark:text-stone-400">{value.rule.comprovante}</p>
          {pcd ? (
            <label className="flex items-start gap-2 text-sm">
              <input
                type="checkbox"
                className="mt-0.5 size-4 accent-brand-700"
                checked={value.consent}
                onChange={(e) => onChange({ ...value, consent: e.target.checked })}
              />
              <span>{PCD_PROOF_CONSENT.text}</span>
            </label>
          ) : null}
          <input
            id={fileId}
            disabled={pcd && !value.consent}
            type="file"
            accept="image/jpeg,image/png,image/webp,image/heic,application/pdf"
            onChange={(e) => void send(e.target.files?.[0])}
          />
          {upload.isPending ? <p role="status">Enviando comprovante...</p> : null}
          {sent ? (
            <p role="status" className="text-sm text-green-800 dark:text-green-400">
              {sent}
            </p>
          ) : null}
          {uploadError ? (
            <p role="alert" className="text-sm text-red-700 dark:text-red-400">
              {uploadError}
            </p>
          ) : null}
        </div>
      ) : null}
    </fieldset>
  );
}

/** The total with the special price in place of its race's price (the server prices it again). */
export function totalWithSpecialPrice(
  price: { itens: Array<{ id: number; preco: number }>; total_centavos: number },
  special: SpecialPrice | null,
): number {
  if (!special) return price.total_centavos;
  const item = price.itens.find((i) => i.id === special.rule.categoria);
  if (!item) return price.total_centavos;
  return price.total_centavos - reaisToCents(item.preco) + reaisToCents(special.rule.preco);
}
