import { Navigate } from 'react-router';

/** /pagar: the spec shows no content for it; paying happens on /revisar-pedido. */
export default function Page() {
  return <Navigate to="/revisar-pedido" replace />;
}
