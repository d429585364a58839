import {
  CERTIFICATE_LAYOUT_LABELS,
  CERTIFICATE_LAYOUTS,
  type CertificateDesign,
  type CertificateLayout,
} from '@passada/core/contracts/results';
import { type FormEvent, useState } from 'react';
import {
  FormField,
  FormStatus,
  primaryButtonClass,
  SelectField,
  secondaryButtonClass,
} from '../../../../components/form-field.tsx';
import { isStaleVersion, StaleVersionAlert } from '../../shell/components/stale-version-alert.tsx';
import { errorMessage } from '../../shell/utils/error-message.ts';
import { downloadSampleCertificate, useCertificateDesign, useSaveCertificateDesign } from '../api/results.ts';

/** What the form holds while typed: the saved design until the person changes something. */
type Draft = Omit<CertificateDesign, 'assinatura_nome' | 'assinatura_cargo' | 'mensagem'> & {
  assinatura_nome: string;
  assinatura_cargo: string;
  mensagem: string;
};

/**
 * The event's certificate design (docs/decisions/0064, later): the layout, the accent colour, who signs
 * and a line of the organiser's. Saved with the version it was opened at; the next certificates, by
 * e-mail or downloaded, use it; "Baixar um certificado de exemplo" shows the saved design.
 */
export function CertificateDesignForm({ eventId, className }: { eventId: number; className: string }) {
  const saved = useCertificateDesign(eventId);
  const save = useSaveCertificateDesign(eventId);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [status, setStatus] = useState<{ message: string; tone: 'success' | 'error' } | null>(null);
  const [stale, setStale] = useState<string | null>(null);
  const current: Draft | null =
    draft ??
    (saved.data
      ? {
          modelo: saved.data.modelo,
          cor: saved.data.cor,
          assinatura_nome: saved.data.assinatura_nome ?? '',
          assinatura_cargo: saved.data.assinatura_cargo ?? '',
          mensagem: saved.data.mensagem ?? '',
        }
      : null);

  const change = (patch: Partial<Draft>) => {
    if (!current) return;
    setStatus(null);
    setDraft({ ...current, ...patch });
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!current || !saved.data) return;
    setStatus(null);
    try {
      await save.mutateAsync({
        modelo: current.modelo,
        cor: current.cor,
        assinatura_nome: current.assinatura_nome.trim() || null,
        assinatura_cargo: current.assinatura_cargo.trim() || null,
        mensagem: current.mensagem.trim() || null,
        versao: saved.data.versao,
      });
      setDraft(null);
      setStatus({
        message: 'Certificado salvo. Os próximos certificados saem neste modelo.',
        tone: 'success',
      });
    } catch (error) {
      if (isStaleVersion(error)) setStale(errorMessage(error));
      else setStatus({ message: errorMessage(error), tone: 'error' });
    }
  };

  const reload = async () => {
    setStale(null);
    setDraft(null);
    await saved.refetch();
  };

  const sample = async () => {
    setStatus(null);
    if (!(await downloadSampleCertificate(eventId)))
      setStatus({ message: 'Não foi possível baixar o exemplo. Tente de novo.', tone: 'error' });
  };

  return (
    <form onSubmit={submit} className={className} aria-label="Certificado">
      <h2 className="mb-2 font-semibold">5. Certificado</h2>
      <p className="mb-2 text-sm">
        Cada concluinte recebe o certificado por e-mail quando os resultados são publicados e pode baixá-lo na
        página do resultado. Escolha como ele sai.
      </p>
      {saved.isError ? <FormStatus message={errorMessage(saved.error)} tone="error" /> : null}
      {stale ? (
        <StaleVersionAlert message={stale} reloadLabel="Recarregar o certificado" onReload={reload} />
      ) : null}
      {current ? (
        <>
          <SelectField
            label="Modelo"
            value={current.modelo}
            onChange={(e) => change({ modelo: e.target.value as CertificateLayout })}
          >
            {CERTIFICATE_LAYOUTS.map((layout) => (
              <option key={layout} value={layout}>
                {CERTIFICATE_LAYOUT_LABELS[layout]}
              </option>
            ))}
          </SelectField>
          <FormField
            label="Cor de destaque"
            type="color"
            value={current.cor.toLowerCase()}
            onChange={(e) => change({ cor: e.target.value.toUpperCase() })}
          />
          <FormField
            label="Quem assina (nome)"
            maxLength={80}
            value={current.assinatura_nome}
            onChange={(e) => change({ assinatura_nome: e.target.value })}
          />
          <FormField
            label="Cargo de quem assina"
            maxLength={80}
            value={current.assinatura_cargo}
            onChange={(e) => change({ assinatura_cargo: e.target.value })}
          />
          <FormField
            label="Mensagem sob os tempos (opcional)"
            maxLength={160}
            value={current.mensagem}
            onChange={(e) => change({ mensagem: e.target.value })}
          />
        </>
      ) : null}
      <div className="mt-2 flex flex-wrap gap-2">
        <button type="submit" className={primaryButtonClass} disabled={save.isPending || !current}>
          Salvar certificado
        </button>
        <button type="button" className={secondaryButtonClass} onClick={() => void sample()}>
          Baixar um certificado de exemplo
        </button>
      </div>
      {status ? <FormStatus message={status.message} tone={status.tone} /> : null}
    </form>
  );
}
