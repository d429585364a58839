import type { PainelPermission } from '@passada/core/contracts/painel';
import { type ComponentType, lazy, Suspense } from 'react';
import { Route, Routes } from 'react-router';
import { Permitted } from './components/permitted.tsx';

/**
 * The back office's own route table, loaded with its first page: the shop's router holds a single
 * `/painel/*` entry, so the JavaScript of `/` does not grow with the back office.
 */
const pages = {
  login: lazy(() => import('../staff/pages/login-page.tsx')),
  layout: lazy(() => import('./painel-layout.tsx')),
  // The first screen, with its sections from the catalogue and the orders, loaded together.
  home: lazy(() =>
    Promise.all([
      import('./pages/home-page.tsx'),
      import('../catalog/pages/stock-cards.tsx'),
      import('../orders/pages/dashboard-section.tsx'),
    ]).then(([home, stock, sales]) => ({
      default: () => (
        <home.default
          StockCards={stock.StockCards}
          DashboardSection={sales.DashboardSection}
          AwaitingShipmentCard={sales.AwaitingShipmentCard}
        />
      ),
    })),
  ),
  products: lazy(() => import('../catalog/pages/products-page.tsx')),
  product: lazy(() => import('../catalog/pages/product-page.tsx')),
  shopHome: lazy(() => import('../catalog/pages/shop-home-page.tsx')),
  lowStock: lazy(() => import('../catalog/pages/low-stock-page.tsx')),
  reviews: lazy(() => import('../catalog/pages/reviews-page.tsx')),
  recovery: lazy(() => import('../orders/pages/recovery-page.tsx')),
  events: lazy(() => import('../events/pages/events-page.tsx')),
  eventForm: lazy(() => import('../events/pages/event-form-page.tsx')),
  participants: lazy(() => import('../events/pages/participants-page.tsx')),
  opening: lazy(() => import('../events/pages/opening-page.tsx')),
  results: lazy(() => import('../events/pages/results-page.tsx')),
  waves: lazy(() => import('../events/pages/waves-page.tsx')),
  teams: lazy(() => import('../events/pages/teams-page.tsx')),
  proofs: lazy(() => import('../events/pages/proofs-page.tsx')),
  priceRules: lazy(() => import('../events/pages/price-rules-page.tsx')),
  registration: lazy(() => import('../events/pages/registration-page.tsx')),
  orders: lazy(() => import('../orders/pages/orders-page.tsx')),
  order: lazy(() => import('../orders/pages/order-page.tsx')),
  orderPrint: lazy(() => import('../orders/pages/order-print-page.tsx')),
  returns: lazy(() => import('../orders/pages/returns-page.tsx')),
  checkin: lazy(() => import('../events/pages/checkin-page.tsx')),
  staff: lazy(() => import('../staff/pages/staff-page.tsx')),
  coupons: lazy(() => import('../catalog/pages/coupons-page.tsx')),
  audit: lazy(() => import('../staff/pages/audit-page.tsx')),
  fiscal: lazy(() => import('../staff/pages/fiscal-page.tsx')),
  messages: lazy(() => import('../staff/pages/messages-page.tsx')),
  customers: lazy(() => import('../staff/pages/customers-page.tsx')),
  security: lazy(() => import('../staff/pages/security-page.tsx')),
  reports: lazy(() => import('../events/pages/reports-page.tsx')),
} satisfies Record<string, ComponentType>;

/** A page of the layout, shown only to roles with what it needs (docs/decisions/0032). */
const only = (needs: PainelPermission | PainelPermission[], Page: ComponentType) => (
  <Permitted needs={needs}>
    <Page />
  </Permitted>
);

export default function PainelApp() {
  return (
    <Suspense fallback={<p className="p-8 text-stone-600">Carregando…</p>}>
      <Routes>
        <Route path="login" element={<pages.login />} />
        <Route path="pedidos/:id/imprimir" element={<pages.orderPrint />} />
        <Route element={<pages.layout />}>
          <Route index element={<pages.home />} />
          <Route path="produtos" element={only(['catalogo', 'estoque'], pages.products)} />
          <Route path="produtos/:id" element={only(['catalogo', 'estoque'], pages.product)} />
          <Route
            path="home-da-loja"
            element={only(['catalogo', 'estoque', 'pedidos', 'relatorios'], pages.shopHome)}
          />
          <Route path="estoque-baixo" element={only('estoque', pages.lowStock)} />
          <Route path="avaliacoes" element={only('catalogo', pages.reviews)} />
          <Route path="lembretes" element={only('pedidos', pages.recovery)} />
          <Route path="eventos" element={only(['eventos', 'pedidos'], pages.events)} />
          <Route path="eventos/novo" element={only('eventos', pages.eventForm)} />
          <Route path="eventos/:id/editar" element={only('eventos', pages.eventForm)} />
          <Route path="eventos/:id/abertura" element={only('eventos', pages.opening)} />
          <Route path="eventos/:id/resultados" element={only('eventos', pages.results)} />
          <Route path="eventos/:id/ondas" element={only('eventos', pages.waves)} />
          <Route path="eventos/:id/equipes" element={only(['eventos', 'pedidos'], pages.teams)} />
          <Route path="eventos/:id/precos" element={only('eventos', pages.priceRules)} />
          <Route path="comprovantes" element={only('comprovantes', pages.proofs)} />
          <Route path="eventos/:id" element={only(['eventos', 'pedidos'], pages.participants)} />
          <Route path="inscricoes/:id" element={only(['eventos', 'pedidos'], pages.registration)} />
          <Route path="pedidos" element={only('pedidos', pages.orders)} />
          <Route path="pedidos/:id" element={only('pedidos', pages.order)} />
          <Route path="devolucoes" element={only('pedidos', pages.returns)} />
          <Route path="checkin" element={only('checkin', pages.checkin)} />
          <Route path="checkin/:eventId" element={only('checkin', pages.checkin)} />
          <Route path="equipe" element={only('equipe', pages.staff)} />
          <Route path="cupons" element={only('cupons', pages.coupons)} />
          <Route path="fiscal" element={only(['relatorios', 'catalogo'], pages.fiscal)} />
          <Route path="registro" element={only('equipe', pages.audit)} />
          <Route path="mensagens" element={only('equipe', pages.messages)} />
          <Route path="clientes" element={only('clientes', pages.customers)} />
          <Route path="relatorios" element={only('relatorios', pages.reports)} />
          <Route path="seguranca" element={<pages.security />} />
          <Route path="*" element={<p>Página não encontrada no painel.</p>} />
        </Route>
      </Routes>
    </Suspense>
  );
}
