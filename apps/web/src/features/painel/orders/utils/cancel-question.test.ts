import type { OrderRegistration } from '@passada/core/contracts/orders';
import { describe, expect, it } from 'vitest';
import { cancelQuestion } from './cancel-question.ts';

const registration = (id: number, nome: string, cancelada = false): OrderRegistration => ({
  id,
  evento: 2,
  nome_evento: 'Corrida do Sol',
  nome_completo: nome,
  categorias: ['5 km'],
  tamanho_camisa: 'M',
  total: 80,
  cancelada,
});

describe('cancelQuestion', () => {
  it('names every registration the cancellation takes with it, and none already cancelled', () => {
    expect(cancelQuestion([])).toBe('Cancelar o pedido e devolver o pagamento ao cliente?');
    expect(cancelQuestion([registration(7, 'Maria Souza')])).toBe(
      'Cancelar o pedido e a inscrição nº 7 de Maria Souza (Corrida do Sol), e devolver o pagamento ao cliente?',
    );
    expect(
      cancelQuestion([
        registration(7, 'Maria Souza'),
        registration(8, 'João Lima'),
        registration(9, 'Ana', true),
      ]),
    ).toBe(
      'Cancelar o pedido e as inscrições nº 7 de Maria Souza (Corrida do Sol), nº 8 de João Lima (Corrida do Sol), e devolver o pagamento ao cliente?',
    );
  });
});
