import type { PainelRegistrationDetail } from '@passada/core/contracts/painel';
import { useState } from 'react';
import { FormStatus, primaryButtonClass, SelectField } from '../../../../components/form-field.tsx';
import { errorMessage } from '../../shell/utils/error-message.ts';
import { useEvent } from '../api/events.ts';
import { useChangeRegistration } from '../api/registrations.ts';

/**
 * "Alterar inscrição" (docs/decisions/0060): staff who run events change a registration's distance and
 * shirt size. The server runs the new sale's rules (places, the waitlist's offers, the CPF free, age
 * limits, shirts in stock) and moves no money; its refusal is shown as it says it.
 */
export function RegistrationChange({ registration }: { registration: PainelRegistrationDetail }) {
  const p = registration.inscricao;
  const event = useEvent(registration.evento.id);
  const change = useChangeRegistration(p.id);
  const [from, setFrom] = useState(String(p.categorias[0]?.id ?? ''));
  const [to, setTo] = useState('');
  const [size, setSize] = useState('');

  if (event.isPending) return <p role="status">Carregando distâncias e camisas…</p>;
  if (event.isError) return <p role="alert">{errorMessage(event.error)}</p>;
  const held = new Set(p.categorias.map((c) => c.id));
  const day = event.data.dias_evento.find((d) => d.categorias.some((c) => c.id === Number(from)));
  const options = (day?.categorias ?? []).filter((c) => !held.has(c.id));
  const sizes = event.data.kit_tamanhos.filter((k) => k.tamanho !== p.tamanho_camisa);

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    change.mutate({
      ...(to ? { de: Number(from), para: Number(to) } : {}),
      ...(size ? { tamanho_camisa: Number(size) } : {}),
    });
  };

  return (
    <form onSubmit={submit} className="flex max-w-md flex-col gap-3">
      <p className="text-sm">
        Troca com as regras de uma inscrição nova (vagas, lista de espera, idade, estoque de camisas), sem
        cobrança nem devolução. O participante recebe um e-mail.
      </p>
      {p.categorias.length > 1 ? (
        <SelectField
          label="Distância a trocar"
          value={from}
          onChange={(e) => {
            setFrom(e.target.value);
            setTo('');
          }}
        >
          {p.categorias.map((c) => (
            <option key={c.id} value={c.id}>
              {c.nome}
            </option>
          ))}
        </SelectField>
      ) : null}
      <SelectField label="Distância nova" value={to} onChange={(e) => setTo(e.target.value)}>
        <option value="">Manter {p.categorias.find((c) => c.id === Number(from))?.nome ?? 'a atual'}</option>
        {options.map((c) => (
          <option key={c.id} value={c.id} disabled={c.restantes <= 0}>
            {c.nome_categoria} ({c.restantes > 0 ? `${c.restantes} vagas` : 'esgotada'})
          </option>
        ))}
      </SelectField>
      {event.data.kit_tamanhos.length > 0 ? (
        <SelectField label="Tamanho da camisa novo" value={size} onChange={(e) => setSize(e.target.value)}>
          <option value="">Manter {p.tamanho_camisa ?? 'sem camisa'}</option>
          {sizes.map((k) => (
            <option key={k.id} value={k.id} disabled={k.restantes <= 0}>
              {k.tamanho} ({k.restantes > 0 ? `${k.restantes} restantes` : 'esgotado'})
            </option>
          ))}
        </SelectField>
      ) : null}
      <button type="submit" className={primaryButtonClass} disabled={change.isPending || (!to && !size)}>
        Salvar alteração
      </button>
      {change.isError ? <FormStatus tone="error" message={errorMessage(change.error)} /> : null}
      {change.isSuccess ? <FormStatus tone="success" message="Inscrição alterada." /> : null}
    </form>
  );
}
