import { useParams } from 'react-router';
import { useAddress } from '../../../lib/accounts-api.ts';
import { AddressForm } from '../components/address-form.tsx';

function EditAddress({ id }: { id: number }) {
  const address = useAddress(id);
  if (address.isPending && address.fetchStatus !== 'idle') return <p role="status">Carregando…</p>;
  if (!address.data) {
    return (
      <p role="alert" className="text-red-700 dark:text-red-400">
        Erro ao buscar o endereço.
      </p>
    );
  }
  const { id: _id, user: _user, ...values } = address.data;
  return <AddressForm id={id} initial={values} failureMessage="Erro ao salvar o endereço." />;
}

export default function EditAddressPage() {
  const { id } = useParams();
  return (
    <main className="mx-auto max-w-xl px-4 py-10">
      <h1 className="mb-6 text-2xl font-bold">Editar endereço</h1>
      <EditAddress id={Number(id)} />
    </main>
  );
}
