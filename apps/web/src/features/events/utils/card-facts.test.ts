import type { Event } from '@passada/core/contracts/events';
import { describe, expect, it } from 'vitest';
import { lowestPriceCents, registrationState } from './card-facts.ts';

const category = (id: number, preco: number, left: number, lot: number | null = null) => ({
  id,
  nome_categoria: `${id} km`,
  preco_inscricao: preco,
  quantidade_disponivel: left,
  lote_atual: lot === null ? null : { nome: '1º lote', descricao: '1º lote', preco: lot },
  proximo_preco: null,
});

const event = (categories: ReturnType<typeof category>[], open = true) =>
  ({
    dias_evento: [{ data: '2026-12-06', categorias: categories }],
    inscricoes_abertas: open,
    prazo_inscricao: '2026-12-03',
  }) as Pick<Event, 'dias_evento' | 'inscricoes_abertas' | 'prazo_inscricao'>;

describe('event card facts', () => {
  it('the lowest price of a category with places, the lot in force first', () => {
    expect(lowestPriceCents(event([category(5, 89.9, 10), category(10, 109.9, 10, 79.9)]))).toBe(7990);
    // A sold-out category's lower price is not "a partir de".
    expect(lowestPriceCents(event([category(5, 49.9, 0), category(10, 109.9, 3)]))).toBe(10990);
    expect(lowestPriceCents(event([category(5, 49.9, 0)]))).toBeNull();
  });

  it('says open until the deadline, sold out, or closed', () => {
    expect(registrationState(event([category(5, 89.9, 1)]))).toEqual({
      open: true,
      text: 'Inscrições abertas até 03/12/2026',
    });
    expect(registrationState(event([category(5, 89.9, 0)]))).toEqual({ open: false, text: 'Esgotado' });
    expect(registrationState(event([category(5, 89.9, 1)], false))).toEqual({
      open: false,
      text: 'Inscrições encerradas',
    });
  });
});
