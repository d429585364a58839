import type { AuditNames } from '@passada/core/audit-changes';
import type { FastifyInstance } from 'fastify';

interface AuditRowIds {
  entity: string;
  entityId: string | null;
}

const byId = <T extends { id: number; name: string }>(rows: T[]) =>
  new Map(rows.map((r) => [String(r.id), r.name]));

/**
 * The names a page of audit lines needs, read from their owners (the catalogue's colours, sizes and
 * products, the events): products by the ids the page names, the small lists whole. Keys are the fields
 * that hold ids (`cor`, `eventos`) and the kinds of record (`produto`, `evento`, `cor`, `tamanho`).
 */
export async function auditNames(app: FastifyInstance, rows: AuditRowIds[]): Promise<AuditNames> {
  const productIds = new Set<number>();
  for (const r of rows) {
    const first = r.entityId?.split('/')[0];
    if ((r.entity === 'produto' || r.entity === 'estoque') && first && /^\d+$/.test(first)) {
      productIds.add(Number(first));
    }
  }
  const admin = app.catalog.admin;
  const [colors, sizes, products, events] = await Promise.all([
    admin.listColors(),
    admin.listSizes(),
    admin.productNames([...productIds]),
    app.events.eventNames(),
  ]);
  const eventNames = new Map([...events].map(([id, name]) => [String(id), name]));
  const colorNames = byId(colors);
  return {
    cor: colorNames,
    cor_id: colorNames,
    tamanho: byId(sizes),
    tamanho_id: byId(sizes),
    produto: byId(products),
    evento: eventNames,
    eventos: eventNames,
  };
}
