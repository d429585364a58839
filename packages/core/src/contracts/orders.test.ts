import { describe, expect, it } from 'vitest';
import { OrderDraftSchema, takesAddition } from './orders.ts';

const item = { product: 1, color: 2, size: 3, quantity: 1 };

/** The contract's side of an addition to an order (docs/decisions/0087). */
describe('an addition’s draft', () => {
  const messages = (draft: object) =>
    (OrderDraftSchema.safeParse(draft).error?.issues ?? []).map((i) => [i.path.join('.'), i.message]);

  it('needs neither address nor shipping: it travels with its order', () => {
    expect(messages({ items: [item], metodo_pagamento: 'pix', complemento_de: 7 })).toEqual([]);
    expect(messages({ items: [item], metodo_pagamento: 'pix' }).map(([path]) => path)).toEqual([
      'address_id',
      'frete',
    ]);
  });

  it('takes no coupon and no registration', () => {
    expect(
      messages({ items: [item], metodo_pagamento: 'pix', complemento_de: 7, cupom: 'PASSADA10' }),
    ).toEqual([['cupom', 'O cupom não vale para um acréscimo ao pedido.']]);
    const runner = {
      nome_completo: 'Maria da Silva',
      cpf: '403.644.788-29',
      data_nascimento: '1990-05-10',
      genero: 'Feminino',
      numero_contato: '(85) 99999-9999',
      email: 'maria.participante@example.com',
      evento: 1,
      categoria_evento: [1],
      street: 'Av. Beira Mar, 100',
      zip_code: '60165-121',
      state: 'CE',
      city: 'Fortaleza',
      neighborhood: 'Meireles',
      contato_emergencia_nome: 'João da Silva',
      contato_emergencia_telefone: '(85) 98888-7777',
      aceite_termo: true,
      termo_versao: 'v1',
    };
    expect(messages({ inscricoes: [runner], metodo_pagamento: 'pix' })).toEqual([]);
    expect(
      messages({ items: [item], inscricoes: [runner], metodo_pagamento: 'pix', complemento_de: 7 }),
    ).toEqual([
      ['inscricoes', 'Um acréscimo ao pedido leva só produtos: inscrições vão num pedido à parte.'],
    ]);
  });
});

describe('an order that takes an addition', () => {
  it('is paid or being packed, ships something and is not an addition itself', () => {
    const order = { status: 'pago' as const, ships: true, isAddition: false };
    expect(takesAddition(order)).toBe(true);
    expect(takesAddition({ ...order, status: 'em separação' })).toBe(true);
    for (const status of ['aguardando pagamento', 'enviado', 'entregue', 'cancelado', 'expirado'] as const)
      expect(takesAddition({ ...order, status }), status).toBe(false);
    expect(takesAddition({ ...order, ships: false })).toBe(false);
    expect(takesAddition({ ...order, isAddition: true })).toBe(false);
  });
});
