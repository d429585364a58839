import type { BibResult } from '@passada/core/contracts/painel';
import { formatIsoDateBR } from '@passada/core/events';
import { type FormEvent, useState } from 'react';
import {
  FormField,
  FormStatus,
  primaryButtonClass,
  SelectField,
} from '../../../../components/form-field.tsx';
import { DataTable } from '../../shell/components/data-table.tsx';
import { errorMessage } from '../../shell/utils/error-message.ts';
import { typedNumber } from '../../shell/utils/typed-number.ts';
import { useAssignBibs, useShirtReport } from '../api/events.ts';
import type { CategoryCount } from '../api/participants.ts';

/**
 * Numbering the participants (bibs) for the timing company, in alphabetical order: one sequence for
 * the whole event, or a range per category (each from the first number typed). A new numbering
 * replaces the earlier one.
 */
export function BibAssignment({ eventId, categories }: { eventId: number; categories: CategoryCount[] }) {
  const assign = useAssignBibs(eventId);
  const [mode, setMode] = useState<'sequencia' | 'categorias'>('sequencia');
  const [first, setFirst] = useState('1');
  const [ranges, setRanges] = useState<Record<number, string>>({});
  const [status, setStatus] = useState<{ message: string; tone: 'success' | 'error' } | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setStatus(null);
    try {
      const result: BibResult = await assign.mutateAsync(
        mode === 'sequencia'
          ? { modo: 'sequencia', inicio: typedNumber(first) ?? 0 }
          : {
              modo: 'categorias',
              faixas: categories
                .filter((c) => (ranges[c.id] ?? '').trim())
                .map((c) => ({ categoria: c.id, inicio: typedNumber(ranges[c.id] ?? '') ?? 0 })),
            },
      );
      const given = result.categorias.filter((c) => c.quantidade > 0);
      setStatus({
        message: given.length
          ? `Números atribuídos: ${given.map((c) => `${c.nome}, ${c.primeiro} a ${c.ultimo}`).join('; ')}.`
          : 'Nenhuma inscrição para numerar.',
        tone: 'success',
      });
    } catch (error) {
      setStatus({ message: errorMessage(error), tone: 'error' });
    }
  };

  return (
    <form
      onSubmit={(e) => void submit(e)}
      noValidate
      aria-label="Números de peito"
      className="mb-6 grid gap-3 rounded-lg border border-stone-300 p-3 dark:border-stone-700"
    >
      <h2 className="text-lg font-semibold">Números de peito</h2>
      <p className="text-sm">Em ordem alfabética do nome. Numerar de novo substitui a numeração anterior.</p>
      <SelectField
        label="Como numerar"
        value={mode}
        onChange={(e) => setMode(e.target.value as 'sequencia' | 'categorias')}
      >
        <option value="sequencia">Uma sequência para o evento</option>
        <option value="categorias">Uma faixa por categoria</option>
      </SelectField>
      {mode === 'sequencia' ? (
        <FormField
          label="Primeiro número"
          type="number"
          min={1}
          value={first}
          onChange={(e) => setFirst(e.target.value)}
        />
      ) : (
        <div className="grid grid-cols-2 gap-3 md:grid-cols-3">
          {categories.map((c) => (
            <FormField
              key={c.id}
              label={`Primeiro número de ${c.nome} (${formatIsoDateBR(c.dia)})`}
              type="number"
              min={1}
              value={ranges[c.id] ?? ''}
              onChange={(e) => setRanges({ ...ranges, [c.id]: e.target.value })}
            />
          ))}
        </div>
      )}
      <FormStatus message={status?.message ?? null} tone={status?.tone ?? 'success'} />
      <button
        type="submit"
        disabled={assign.isPending}
        className={`${primaryButtonClass} justify-self-start`}
      >
        Numerar participantes
      </button>
    </form>
  );
}

/** Shirts to order per size, from the standing registrations. */
export function ShirtReport({ eventId }: { eventId: number }) {
  const report = useShirtReport(eventId);
  return (
    <>
      <h2 className="mb-2 text-lg font-semibold">Camisas por tamanho</h2>
      <DataTable
        label="Camisas por tamanho"
        className="mb-6"
        rows={report.data?.tamanhos}
        rowKey={(s) => s.tamanho}
        empty="Nenhuma camisa escolhida ainda."
        columns={[
          { header: 'Tamanho', rowHeader: true, cell: (s) => s.tamanho },
          { header: 'Quantidade', cell: (s) => s.quantidade },
        ]}
      />
    </>
  );
}
