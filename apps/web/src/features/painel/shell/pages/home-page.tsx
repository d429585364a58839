import { EVENT_SCOPED_ROLES } from '@passada/core/contracts/painel';
import type { ComponentType } from 'react';
import { Navigate, useOutletContext } from 'react-router';
import { type Me, useStaffCan } from '../api/auth.ts';

/**
 * What the first screen shows of the other parts of the back office: the catalogue's stock cards and the
 * orders' sales. The route table hands them in, since the shell imports those parts' pages only there.
 */
export interface HomeSections {
  StockCards: ComponentType;
  DashboardSection: ComponentType;
  AwaitingShipmentCard: ComponentType;
}

/** The back office's first screen: what needs attention now. */
export default function PainelHomePage({ StockCards, DashboardSection, AwaitingShipmentCard }: HomeSections) {
  const me = useOutletContext<Me>();
  const seesStock = useStaffCan(['catalogo', 'estoque']);
  const seesSales = useStaffCan('relatorios');
  const ships = useStaffCan('pedidos');
  // A kit-desk volunteer's back office is the check-in screen.
  if (EVENT_SCOPED_ROLES.includes(me.staff.role)) return <Navigate to="/painel/checkin" replace />;
  return (
    <section>
      <h1 className="mb-4 text-2xl font-bold">Olá, {me.staff.name.split(' ')[0]}</h1>
      {ships && !seesSales ? (
        <div className="mb-6">
          <AwaitingShipmentCard />
        </div>
      ) : null}
      {seesStock ? <StockCards /> : null}
      {seesSales ? (
        <div className="mt-6">
          <DashboardSection />
        </div>
      ) : null}
    </section>
  );
}
