import type { LotteryEntryInput } from '@passada/core/contracts/lottery';
import type { NextEditionSignup } from '@passada/core/contracts/results';
import type { WaitlistJoin } from '@passada/core/contracts/waitlist';
import { categoryDistanceKm } from '@passada/core/results';
import { conflict, notFound } from '../../plugins/errors.ts';

/** What the one-click pre-registration asks of other modules; each keeps its own rules. */
export interface NextEditionDeps {
  /** The next edition staff linked to the event (results' own table). */
  nextEditionOf: (eventId: number) => Promise<{ id: number; nome: string } | null>;
  /** The event a race entry's result belongs to, with the entry's category; only a published result. */
  resultOfEntry: (entryId: number) => Promise<{ eventId: number } | undefined>;
  /** Registrations: who ran the entry, only for the account that made the registration. */
  runnerOfEntry: (
    entryId: number,
    userId: number,
  ) => Promise<{ fullName: string; cpf: string; birthDate: string; categoryId: number } | undefined>;
  /** Events: an event's categories, with names (their distances are read from them). */
  categoriesOf: (eventId: number) => Promise<Array<{ id: number; name: string }>>;
  /** Opening: whether the event opens by lottery, and the lottery's own entry (window, limits, mail). */
  opensByLottery: (eventId: number) => boolean;
  enterLottery: (
    eventId: number,
    user: { id: number; email: string },
    input: LotteryEntryInput,
  ) => Promise<unknown>;
  /** Registrations: a sold-out category's waitlist, joined as the public form joins it. */
  joinWaitlist: (eventId: number, input: WaitlistJoin) => Promise<unknown>;
}

/**
 * The loop back to the next edition (decision 0064, later): a finisher's account pre-registers the
 * runner of that race in the next edition's lottery, or its waitlist when the race is sold out, with the
 * data of the race run and the same distance. Nothing is bypassed: the lottery's window, limits and
 * category rules and the waitlist's (a CPF already registered, places still free) answer as they do on
 * their own forms. Registrations open with places left are a normal registration, not a pre-registration.
 */
export function createNextEdition(deps: NextEditionDeps) {
  async function signUp(entryId: number, user: { id: number; email: string }): Promise<NextEditionSignup> {
    const result = await deps.resultOfEntry(entryId);
    const runner = result ? await deps.runnerOfEntry(entryId, user.id) : undefined;
    if (!result || !runner) throw notFound('Resultado não encontrado nas inscrições desta conta.');
    const next = await deps.nextEditionOf(result.eventId);
    if (!next) throw notFound('Este evento ainda não tem a próxima edição na loja.');
    if (runner.cpf === '')
      throw conflict(
        'Os dados desta inscrição já foram apagados, como a loja promete depois da prova: inscreva-se pela página da próxima edição.',
        'dados_apagados',
      );
    const category = await sameDistance(result.eventId, runner.categoryId, next.id);
    const who = { nome_completo: runner.fullName, cpf: runner.cpf, categoria: category.id };
    if (deps.opensByLottery(next.id)) {
      await deps.enterLottery(next.id, user, { ...who, data_nascimento: runner.birthDate });
      return {
        modo: 'sorteio',
        evento: next,
        categoria: category.name,
        mensagem: `${runner.fullName} está no sorteio de ${next.nome}, ${category.name}. A confirmação foi para o e-mail da sua conta.`,
      };
    }
    // The waitlist refuses a category with places still free (`vagas_disponiveis`): that is a sale.
    await deps.joinWaitlist(next.id, { ...who, email: user.email });
    return {
      modo: 'lista_espera',
      evento: next,
      categoria: category.name,
      mensagem: `Pedido de lista de espera de ${runner.fullName} em ${next.nome}, ${category.name}, recebido. A posição chega ao e-mail da sua conta.`,
    };
  }

  /** The next edition's category of the distance run (one only; otherwise the runner chooses on the page). */
  async function sameDistance(eventId: number, categoryId: number, nextId: number) {
    const ran = (await deps.categoriesOf(eventId)).find((c) => c.id === categoryId);
    const km = ran ? categoryDistanceKm(ran.name) : null;
    const matches = (await deps.categoriesOf(nextId)).filter(
      (c) => km !== null && categoryDistanceKm(c.name) === km,
    );
    if (matches.length !== 1)
      throw conflict(
        'A próxima edição não tem uma prova só da mesma distância: escolha a sua na página do evento.',
        'categoria_a_escolher',
      );
    return matches[0]!;
  }

  return { signUp };
}

export type NextEdition = ReturnType<typeof createNextEdition>;
