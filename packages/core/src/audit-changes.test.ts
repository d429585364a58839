import { describe, expect, it } from 'vitest';
import { auditChanges } from './audit-changes.ts';

describe('auditChanges', () => {
  it('lists only the fields that changed, with Portuguese labels and amounts in reais', () => {
    expect(
      auditChanges(
        { name: 'Camiseta Dry', price: 79.9, hidden: false, stock: { quantity_cents: 1000 } },
        { name: 'Camiseta Dry', price: 89.9, hidden: true, stock: { quantity_cents: 1250 } },
      ),
    ).toEqual([
      { campo: 'Preço', antes: 'R$\u00a079,90', depois: 'R$\u00a089,90' },
      { campo: 'Oculto', antes: 'Não', depois: 'Sim' },
      { campo: 'Stock › Quantity cents', antes: 'R$\u00a010,00', depois: 'R$\u00a012,50' },
    ]);
  });

  it('shows a record created or removed field by field, and nothing for an unchanged one', () => {
    expect(auditChanges(null, { role: 'checkin', eventos: [3, 5] })).toEqual([
      { campo: 'Perfil', antes: '—', depois: 'checkin' },
      { campo: 'Eventos do check-in', antes: '—', depois: '3, 5' },
    ]);
    expect(auditChanges({ a: 1 }, { a: 1 })).toEqual([]);
  });
});
