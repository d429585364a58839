import { AddressForm } from '../components/address-form.tsx';

export default function AddAddressPage() {
  return (
    <main className="mx-auto max-w-xl px-4 py-10">
      <h1 className="mb-6 text-2xl font-bold">Adicionar endereço</h1>
      <AddressForm failureMessage="Erro ao adicionar o endereço." />
    </main>
  );
}
