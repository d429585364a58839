import { addDays } from '@passada/core/calendar';
import type { EventMoney, EventReport } from '@passada/core/contracts/painel-reports';
import { centsToReais } from '@passada/core/money';
import type { Db } from '../../db/client.ts';
import * as report from './event-report.repository.ts';

/** A report's money row on the wire, in reais; net is gross less refunded, subtracted in centavos. */
const moneyWire = (m: report.MoneyRow) => ({
  inscricoes: m.registrations,
  canceladas: m.cancelled,
  bruto: centsToReais(m.grossCents),
  devolvido: centsToReais(m.refundedCents),
  liquido: centsToReais(m.grossCents - m.refundedCents),
});

/** The events' reports for the back office: registrations per event, money per event and one event's report. */
export function createEventReports(deps: { db: Db }) {
  /** Registrations per event (not cancelled) and how many were free, for the dashboard. */
  function perEvent() {
    return report.registrationsPerEvent(deps.db);
  }

  /** Every event's money (gross, refunded, net), newest first, for the reports page. */
  async function moneyPerEvent(): Promise<EventMoney[]> {
    return (await report.moneyPerEvent(deps.db)).map((e) => ({
      evento_id: e.eventId,
      evento: e.name,
      data: e.startDate,
      ...moneyWire(e),
    }));
  }

  /**
   * One event's report: its money in all, per payment method and per lot, and its registrations per
   * day (every day from the first registration to the last, the quiet ones at zero). Null when the
   * event does not exist.
   */
  async function eventReport(eventId: number): Promise<EventReport | null> {
    const event = (await report.moneyPerEvent(deps.db)).find((e) => e.eventId === eventId);
    if (!event) return null;
    const [byMethod, byLot, byRule, perDay, pickups] = await Promise.all([
      report.moneyByMethod(deps.db, eventId),
      report.salesByLot(deps.db, eventId),
      report.salesByRule(deps.db, eventId),
      report.registrationsPerDay(deps.db, eventId),
      report.kitPickups(deps.db, eventId),
    ]);
    const days: EventReport['por_dia'] = [];
    const first = perDay[0]?.day;
    const last = perDay[perDay.length - 1]?.day;
    if (first && last) {
      for (let day = first; day <= last && days.length < 731; day = addDays(day, 1)) {
        const found = perDay.find((d) => d.day === day);
        days.push({ dia: day, inscricoes: found?.count ?? 0, canceladas: found?.cancelled ?? 0 });
      }
    }
    return {
      evento_id: eventId,
      evento: event.name,
      data: event.startDate,
      ...moneyWire(byMethod.total),
      descontos: centsToReais(byMethod.total.discountCents),
      pos_venda: centsToReais(byMethod.total.afterSaleCents),
      vagas_equipe: centsToReais(byMethod.total.teamCents),
      por_metodo: byMethod.methods.map((m) => ({ metodo: m.method, ...moneyWire(m) })),
      por_lote: byLot.map((l) => ({
        categoria: l.category,
        lote: l.lot,
        inscricoes: l.count,
        canceladas: l.cancelled,
        valor: centsToReais(l.cents),
      })),
      por_regra: byRule.map((r) => ({
        regra: r.rule,
        regra_id: r.ruleId,
        inscricoes: r.count,
        canceladas: r.cancelled,
        valor: centsToReais(r.cents),
      })),
      por_dia: days,
      retiradas: {
        total: pickups.total,
        titular: pickups.total - pickups.delegated - pickups.byTeam,
        autorizado: pickups.delegated,
        equipe: pickups.byTeam,
        trouxeram_item: pickups.brought,
        item_total: pickups.quantity,
      },
    };
  }

  return { perEvent, moneyPerEvent, eventReport };
}
