import { describe, expect, it } from 'vitest';
import { auditChanges, auditSubject } from './audit-changes.ts';

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
      { campo: 'Estoque › Quantity cents', antes: 'R$\u00a010,00', depois: 'R$\u00a012,50' },
    ]);
  });

  it('shows a record created or removed field by field, and nothing for an unchanged one', () => {
    expect(auditChanges(null, { role: 'checkin', eventos: [3, 5] })).toEqual([
      { campo: 'Perfil', antes: '—', depois: 'checkin' },
      { campo: 'Eventos do check-in', antes: '—', depois: '3, 5' },
    ]);
    expect(auditChanges({ a: 1 }, { a: 1 })).toEqual([]);
  });

  it('names ids by the names given, leaves out the edit version and spells records in lists as words', () => {
    const names = {
      cor: new Map([['17', 'Azul Caatinga']]),
      eventos: new Map([
        ['3', 'Corrida do Sol'],
        ['5', 'Meia de Natal'],
      ]),
    };
    expect(auditChanges({ cor: 17, versao: 2 }, { cor: null, versao: 3 }, names)).toEqual([
      { campo: 'Cor', antes: 'Azul Caatinga', depois: '—' },
    ]);
    expect(auditChanges(null, { eventos: [3, 5] }, names)).toEqual([
      { campo: 'Eventos do check-in', antes: '—', depois: 'Corrida do Sol, Meia de Natal' },
    ]);
    expect(
      auditChanges(null, {
        stock: [{ color: { id: 1, name: 'Azul', hex: '#0000ff' }, size: { id: 2, name: 'M' }, quantity: 3 }],
      }),
    ).toEqual([{ campo: 'Estoque', antes: '—', depois: 'Cor: Azul; Tamanho: M; Quantidade: 3' }]);
    expect(auditChanges({ ncm: '61091000' }, { ncm: '61102000' })).toEqual([
      { campo: 'NCM', antes: '61091000', depois: '61102000' },
    ]);
  });

  it('names the record a line is about, falling back to the id of one since removed', () => {
    const names = {
      produto: new Map([['25', 'Camiseta Sertão']]),
      cor: new Map([['15', 'Azul']]),
      tamanho: new Map([['3', 'M']]),
      evento: new Map([['4', 'Corrida do Sol']]),
    };
    expect(auditSubject('estoque', '25/15/3', names)).toBe('Estoque de Camiseta Sertão · Azul · M');
    expect(auditSubject('produto', '25', names)).toBe('Produto Camiseta Sertão');
    expect(auditSubject('produto', '26', names)).toBe('Produto 26');
    expect(auditSubject('evento', '4', names)).toBe('Evento Corrida do Sol');
    expect(auditSubject('pedido', '12', names)).toBe('Pedido nº 12');
    expect(auditSubject('fiscal', '1', names)).toBe('Configurações fiscais');
    expect(auditSubject('equipe', null, names)).toBe('Equipe');
  });
});
