import type { PainelParticipant } from '@passada/core/contracts/painel';
import { formatIsoDateBR } from '@passada/core/events';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import {
  FormField,
  FormStatus,
  linkClass,
  SelectField,
  secondaryButtonClass,
} from '../../../components/form-field.tsx';
import { errorMessage, painelFetch, painelToken } from '../painel-api.ts';

interface CategoryCount {
  id: number;
  nome: string;
  dia: string;
  inscritos: number;
  retirados: number;
  vagas_restantes: number;
}

/** One event's participants: filters, search, counts per category and the CSV for the timing company. */
export default function ParticipantsPage() {
  const eventId = Number(useParams().id);
  const [category, setCategory] = useState('');
  const [day, setDay] = useState('');
  const [status, setStatus] = useState('');
  const [search, setSearch] = useState('');
  const [error, setError] = useState<string | null>(null);
  const query = new URLSearchParams(
    Object.entries({ categoria: category, dia: day, status, busca: search }).filter(([, v]) => v),
  ).toString();
  const list = useQuery({
    queryKey: ['painel', 'participants', eventId, query],
    queryFn: () =>
      painelFetch<{ results: PainelParticipant[]; contagem: CategoryCount[] }>(
        `/events/${eventId}/participants/?${query}`,
      ),
  });
  const counts = list.data?.contagem ?? [];
  const days = [...new Set(counts.map((c) => c.dia))];

  // The file comes through fetch because the back office's token travels in a header, not a cookie.
  const download = async () => {
    setError(null);
    const res = await fetch(`/api/painel/events/${eventId}/participants.csv?${query}`, {
      headers: { authorization: `Token ${painelToken.get() ?? ''}` },
    });
    if (!res.ok) {
      setError(errorMessage(null));
      return;
    }
    const name =
      /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'participantes.csv';
    const url = URL.createObjectURL(await res.blob());
    const link = document.createElement('a');
    link.href = url;
    link.download = name;
    link.click();
    URL.revokeObjectURL(url);
  };

  return (
    <section>
      <p className="mb-2">
        <Link to="/painel/eventos" className={linkClass}>
          ← Eventos
        </Link>
      </p>
      <h1 className="mb-4 text-2xl font-bold">Participantes</h1>
      <h2 className="mb-2 text-lg font-semibold">Inscritos por categoria</h2>
      <table className="mb-6 text-left text-sm">
        <thead>
          <tr className="border-b border-stone-300">
            <th className="py-1 pr-6">Categoria</th>
            <th className="pr-6">Dia</th>
            <th className="pr-6">Inscritos</th>
            <th className="pr-6">Kits retirados</th>
            <th>Vagas restantes</th>
          </tr>
        </thead>
        <tbody>
          {counts.map((c) => (
            <tr key={c.id}>
              <td className="py-1 pr-6">{c.nome}</td>
              <td className="pr-6">{formatIsoDateBR(c.dia)}</td>
              <td className="pr-6">{c.inscritos}</td>
              <td className="pr-6">{c.retirados}</td>
              <td>{c.vagas_restantes}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="mb-4 grid grid-cols-2 items-end gap-3 md:grid-cols-5">
        <SelectField label="Categoria" value={category} onChange={(e) => setCategory(e.target.value)}>
          <option value="">Todas</option>
          {counts.map((c) => (
            <option key={c.id} value={c.id}>
              {c.nome} ({formatIsoDateBR(c.dia)})
            </option>
          ))}
        </SelectField>
        <SelectField label="Dia" value={day} onChange={(e) => setDay(e.target.value)}>
          <option value="">Todos</option>
          {days.map((d) => (
            <option key={d} value={d}>
              {formatIsoDateBR(d)}
            </option>
          ))}
        </SelectField>
        <SelectField label="Situação do kit" value={status} onChange={(e) => setStatus(e.target.value)}>
          <option value="">Todas</option>
          <option value="retirado">Retirado</option>
          <option value="pendente">Pendente</option>
        </SelectField>
        <FormField
          label="Buscar por nome ou CPF"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
        <button type="button" className={secondaryButtonClass} onClick={download}>
          Exportar CSV
        </button>
      </div>
      <FormStatus message={error} tone="error" />
      <p className="mb-2 text-sm">
        {list.data ? `${list.data.results.length} participante(s)` : 'Carregando…'}
      </p>
      <table className="w-full text-left text-sm">
        <thead>
          <tr className="border-b border-stone-300">
            <th className="py-2">Nº</th>
            <th>Nome</th>
            <th>CPF</th>
            <th>Categorias</th>
            <th>Faixa etária</th>
            <th>Camisa</th>
            <th>Kit</th>
          </tr>
        </thead>
        <tbody>
          {list.data?.results.map((p) => (
            <tr key={p.id} className="border-b border-stone-200 dark:border-stone-800">
              <td className="py-2">{p.id}</td>
              <td>
                {p.nome_completo}
                {/* Staff check a document at pickup when the 60+ half price was applied. */}
                {p.meia_entrada ? (
                  <span className="ml-2 rounded bg-amber-100 px-1.5 text-xs font-semibold text-amber-900 dark:bg-amber-900 dark:text-amber-100">
                    Meia 60+
                  </span>
                ) : null}
                {p.pcd ? (
                  <span className="ml-2 rounded bg-sky-100 px-1.5 text-xs font-semibold text-sky-900 dark:bg-sky-900 dark:text-sky-100">
                    PCD
                  </span>
                ) : null}
              </td>
              <td>{p.cpf}</td>
              <td>{p.categorias.map((c) => c.nome).join(', ')}</td>
              <td>{p.faixa_etaria}</td>
              <td>{p.tamanho_camisa ?? '—'}</td>
              <td>{p.retirada ? `Retirado (${p.retirada.staff_name})` : 'Pendente'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
