import type { Participant } from '@passada/core/contracts/registrations';
import { beforeEach, describe, expect, it } from 'vitest';
import { type CartRegistration, cartRegistrations } from './cart-registrations.ts';

function line(overrides: Partial<Participant> = {}): Omit<CartRegistration, 'key'> {
  return {
    nome_evento: 'Corrida da Ponte',
    categorias: ['10 km'],
    tamanho: 'M',
    participant: {
      nome_completo: 'Helena Família',
      cpf: '40364478829',
      data_nascimento: '1987-03-14',
      genero: 'Feminino',
      endereco: 'Rua dos Corredores, 42 - Aldeota, Fortaleza - CE, 60150-160',
      numero_contato: '(85) 97777-6666',
      email: 'helena@example.com',
      evento: 7,
      categoria_evento: [12],
      street: 'Rua dos Corredores, 42',
      zip_code: '60150-160',
      state: 'CE',
      city: 'Fortaleza',
      neighborhood: 'Aldeota',
      tamanho_camisa: 3,
      contato_emergencia_nome: 'Rita',
      contato_emergencia_telefone: '(85) 96666-5555',
      pcd: false,
      aceite_termo: true,
      termo_versao: 'v1',
      ...overrides,
    } as Participant,
  };
}

/** Categories 12 (10 km) and 13 (5 km) run on Saturday, 14 (21 km) on Sunday. */
const dayOf = (id: number) => ({ 12: '2026-12-05', 13: '2026-12-05', 14: '2026-12-06' })[id];

const stored = () =>
  JSON.parse(localStorage.getItem('inscricoesCarrinho') ?? 'null') as CartRegistration[] | null;

describe('registrations waiting in the cart', () => {
  beforeEach(() => {
    localStorage.clear();
    cartRegistrations.clear();
  });

  it('saves every change under `inscricoesCarrinho`; a line is removed by its key', () => {
    cartRegistrations.add(line(), dayOf);
    cartRegistrations.add(line({ cpf: '52998224725', nome_completo: 'Otávio Família' }), dayOf);
    expect(stored()!.map((l) => l.participant.nome_completo)).toEqual(['Helena Família', 'Otávio Família']);
    cartRegistrations.remove(cartRegistrations.getSnapshot()[0]!.key);
    expect(stored()!.map((l) => l.participant.nome_completo)).toEqual(['Otávio Família']);
  });

  it('the same person for the same event is one line: categories of other days join, a new choice for a day replaces that day', () => {
    expect(cartRegistrations.add(line(), dayOf)).toBe('added');
    // 14 is on Sunday: Saturday's 10 km stays, Sunday's 21 km joins.
    expect(cartRegistrations.add({ ...line({ categoria_evento: [14] }), categorias: ['21 km'] }, dayOf)).toBe(
      'merged',
    );
    expect(cartRegistrations.getSnapshot()).toHaveLength(1);
    expect(cartRegistrations.getSnapshot()[0]!.participant.categoria_evento).toEqual([12, 14]);
    expect(cartRegistrations.getSnapshot()[0]!.categorias).toEqual(['10 km', '21 km']);
    // 13 is Saturday's 5 km: it takes the 10 km's place; Sunday's stays.
    cartRegistrations.add(
      { ...line({ categoria_evento: [13], equipe: 'Nova' }), categorias: ['5 km'] },
      dayOf,
    );
    const [only] = cartRegistrations.getSnapshot();
    expect(only!.participant.categoria_evento).toEqual([14, 13]);
    expect(only!.categorias).toEqual(['21 km', '5 km']);
    expect(only!.participant.equipe).toBe('Nova');
    expect(cartRegistrations.add(line({ evento: 8 }), dayOf)).toBe('added');
    expect(cartRegistrations.getSnapshot()).toHaveLength(2);
  });

  it('clearing (after payment) leaves no participant data in the browser', () => {
    cartRegistrations.add(line(), dayOf);
    cartRegistrations.clear();
    expect(stored()).toEqual([]);
  });
});
