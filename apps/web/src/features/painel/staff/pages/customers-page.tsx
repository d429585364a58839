import type { Customer } from '@passada/core/contracts/painel';
import { formatBRL, reaisToCents } from '@passada/core/money';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import {
  FormField,
  FormStatus,
  linkClass,
  primaryButtonClass,
  SelectField,
  secondaryButtonClass,
} from '../../../../components/form-field.tsx';
import { formatDateTime } from '../../../../lib/format.ts';
import { DataTable } from '../../shell/components/data-table.tsx';
import { Pager } from '../../shell/components/pager.tsx';
import { errorMessage } from '../../shell/utils/error-message.ts';
import { saveFile } from '../../shell/utils/save-file.ts';
import {
  useCustomer,
  useCustomerSearch,
  useCustomerTags,
  useEraseCustomer,
  useExportCustomer,
} from '../api/customers.ts';
import { CustomerNotes } from './customer-notes.tsx';

const PAGE_SIZE = 20;

/**
 * Permission `clientes` (docs/decisions/0032): find a customer by name, e-mail or CPF (on the server),
 * see their orders and registrations, export their data or erase it on their request (LGPD).
 */
export default function CustomersPage() {
  const [typed, setTyped] = useState('');
  const [busca, setBusca] = useState('');
  const [tag, setTag] = useState('');
  const [etiqueta, setEtiqueta] = useState('');
  const [page, setPage] = useState(1);
  const [chosen, setChosen] = useState<Customer | null>(null);
  const tags = useCustomerTags();
  const found = useCustomerSearch(busca, page, etiqueta);
  const pages = Math.max(1, Math.ceil((found.data?.count ?? 0) / PAGE_SIZE));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setBusca(typed.trim());
    setEtiqueta(tag);
    setPage(1);
    setChosen(null);
  };
  return (
    <section>
      <h1 className="mb-4 text-2xl font-bold">Clientes</h1>
      <form
        onSubmit={submit}
        aria-label="Buscar clientes"
        className="mb-4 flex max-w-2xl flex-wrap items-end gap-3"
      >
        <FormField label="Nome, e-mail ou CPF" value={typed} onChange={(e) => setTyped(e.target.value)} />
        <SelectField label="Etiqueta" value={tag} onChange={(e) => setTag(e.target.value)}>
          <option value="">Todas</option>
          {(tags.data ?? []).map((t) => (
            <option key={t.etiqueta} value={t.etiqueta}>
              {t.etiqueta} ({t.clientes})
            </option>
          ))}
        </SelectField>
        <button type="submit" className={secondaryButtonClass}>
          Buscar
        </button>
      </form>
      {found.isError ? <p role="alert">{errorMessage(found.error)}</p> : null}
      {busca || etiqueta ? (
        <>
          <DataTable
            label="Clientes encontrados"
            rows={found.data?.results}
            rowKey={(c) => c.id}
            empty="Nenhum cliente encontrado."
            columns={[
              {
                header: 'Nome',
                rowHeader: true,
                cell: (c) => (
                  <button type="button" className={linkClass} onClick={() => setChosen(c)}>
                    {c.nome}
                  </button>
                ),
              },
              { header: 'E-mail', cell: (c) => c.email },
              { header: 'Conta', cell: (c) => (c.excluida ? 'excluída' : c.username) },
            ]}
          />
          <Pager page={page} pages={pages} label="Páginas de clientes" onPage={setPage} />
        </>
      ) : null}
      {chosen ? <CustomerCard id={chosen.id} /> : null}
    </section>
  );
}

function CustomerCard({ id }: { id: number }) {
  const customer = useCustomer(id);
  const exportData = useExportCustomer();
  const erase = useEraseCustomer();
  const [motivo, setMotivo] = useState('');
  const [status, setStatus] = useState<{ message: string; tone: 'success' | 'error' } | null>(null);
  const c = customer.data;
  if (!c) return customer.isError ? <p role="alert">{errorMessage(customer.error)}</p> : <p>Carregando…</p>;

  const download = async () => {
    try {
      const data = await exportData.mutateAsync(id);
      saveFile({
        name: `dados-cliente-${id}.json`,
        blob: new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }),
      });
      setStatus({ message: 'Dados exportados.', tone: 'success' });
    } catch (error) {
      setStatus({ message: errorMessage(error), tone: 'error' });
    }
  };
  const remove = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await erase.mutateAsync({ id, motivo });
      setStatus({ message: 'Dados pessoais excluídos.', tone: 'success' });
    } catch (error) {
      setStatus({ message: errorMessage(error), tone: 'error' });
    }
  };

  return (
    <section
      aria-label={`Cliente ${c.cliente.nome}`}
      className="mt-6 rounded-lg border border-stone-300 p-4 dark:border-stone-700"
    >
      <h2 className="text-xl font-semibold">{c.cliente.nome}</h2>
      <p className="mb-3 text-sm">
        {c.cliente.email} · conta criada em {formatDateTime(c.cliente.criado_em)}
      </p>
      <h3 className="font-semibold">Pedidos</h3>
      <DataTable
        label={`Pedidos de ${c.cliente.nome}`}
        rows={c.pedidos}
        rowKey={(o) => o.id}
        empty="Nenhum pedido."
        columns={[
          {
            header: 'Pedido',
            rowHeader: true,
            cell: (o) => (
              <Link to={`/painel/pedidos/${o.id}`} className={linkClass}>
                nº {o.id}
              </Link>
            ),
          },
          { header: 'Data', cell: (o) => formatDateTime(o.data) },
          { header: 'Situação', cell: (o) => o.status },
          { header: 'Total', cell: (o) => formatBRL(reaisToCents(o.total)) },
        ]}
      />
      <h3 className="mt-4 font-semibold">Inscrições</h3>
      <DataTable
        label={`Inscrições de ${c.cliente.nome}`}
        rows={c.inscricoes}
        rowKey={(r) => r.id}
        empty="Nenhuma inscrição."
        columns={[
          { header: 'Participante', rowHeader: true, cell: (r) => r.participante },
          { header: 'Evento', cell: (r) => r.evento },
          { header: 'Feita em', cell: (r) => formatDateTime(r.criada_em) },
          { header: 'Situação', cell: (r) => (r.cancelada ? 'cancelada' : 'ativa') },
        ]}
      />
      <CustomerNotes id={id} detail={c} />
      <h3 className="mt-4 font-semibold">Dados pessoais (LGPD)</h3>
      <button type="button" className={`${secondaryButtonClass} mt-2`} onClick={download}>
        Exportar dados
      </button>
      {c.cliente.excluida ? (
        <p className="mt-2">Os dados pessoais desta conta já foram excluídos.</p>
      ) : (
        <form onSubmit={remove} aria-label="Excluir dados pessoais" className="mt-3 grid max-w-md gap-2">
          <FormField
            label="Como a pessoa pediu a exclusão"
            value={motivo}
            onChange={(e) => setMotivo(e.target.value)}
          />
          <button type="submit" className={`${primaryButtonClass} justify-self-start`}>
            Excluir dados pessoais
          </button>
        </form>
      )}
      <FormStatus message={status?.message ?? null} tone={status?.tone ?? 'success'} />
    </section>
  );
}
