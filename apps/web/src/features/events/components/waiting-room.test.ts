import { describe, expect, it } from 'vitest';
import { queueLine } from './waiting-room.tsx';

describe('queueLine', () => {
  it('tells the next runner that the turn comes next, not a place beside "0 à sua frente"', () => {
    const line = queueLine({ a_frente: 0, espera_minutos: 1 });
    expect(line).toBe('Você é a próxima pessoa da fila: sua vez começa em cerca de 1 minuto.');
    expect(line).not.toMatch(/lugar|0 à sua frente/);
    // A wait the rate rounds to nothing still reads as about a minute.
    expect(queueLine({ a_frente: 0, espera_minutos: 0 })).toContain('cerca de 1 minuto');
  });

  it('counts the people ahead with the singular for one', () => {
    expect(queueLine({ a_frente: 1, espera_minutos: 2 })).toBe(
      'Você está na fila: 1 pessoa à sua frente. Sua vez começa em cerca de 2 minutos.',
    );
    expect(queueLine({ a_frente: 1500, espera_minutos: 1500 })).toBe(
      'Você está na fila: 1.500 pessoas à sua frente. Sua vez começa em cerca de 1.500 minutos.',
    );
  });
});
