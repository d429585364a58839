import { streetLine } from '@passada/core/address';
import { formatCep } from '@passada/core/cep';
import type { Address } from '@passada/core/contracts/accounts';
import { Link } from 'react-router';

export function DeliveryAddress({ address, className }: { address: Address; className: string }) {
  return (
    <section className={className} aria-labelledby="endereco-titulo">
      <h2 id="endereco-titulo" className="mb-2 text-lg font-bold">
        Endereço de entrega
      </h2>
      <address className="not-italic leading-relaxed">
        {address.full_name}
        <br />
        {streetLine(address)}, {address.neighborhood}
        <br />
        {address.city}-{address.state}, CEP {formatCep(address.zip_code)}
        <br />
        {address.phone}
      </address>
      <Link to="/enderecos" className="mt-2 inline-block text-sm font-medium text-brand-700 underline">
        Trocar endereço
      </Link>
    </section>
  );
}
