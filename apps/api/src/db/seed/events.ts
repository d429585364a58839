import {
  addDays,
  dateInTimeZone,
  formatIsoDateBR,
  type IsoDate,
  STORE_TIME_ZONE,
} from '@passada/core/calendar';
import { reaisToCents } from '@passada/core/money';
import { defaultRegulation, defaultTerms } from '@passada/core/race-rules';
import { eventPoster } from '../../modules/events/event-poster.ts';
import { notifyEventsChanged } from '../../modules/events/events.service.ts';
import type { Db } from '../client.ts';
import { categoryLots, eventCategories, eventDays, eventKitSizes, events } from '../schema/index.ts';

interface DemoCategory {
  name: string;
  price: number;
  places: number;
  /** Age limits on the race day; null is none. */
  minAge: number | null;
  maxAge: number | null;
}

interface DemoEvent {
  name: string;
  organizer: string;
  city: string;
  state: string;
  place: string;
  /** Days from the seed day to the earliest first race day; the race moves on to the next weekend day. */
  startsIn: number;
  /** Registrations ended yesterday (the demo's closed event); otherwise they end 3 days before the race. */
  closed?: boolean;
  /** Start time; 06:00 unless the description says otherwise. */
  time?: string;
  description: string;
  /** One list of categories per race day. */
  days: DemoCategory[][];
}

/** Shirt sizes of every demo kit and how many of each. */
const KIT_SIZES: Array<[string, number]> = [
  ['PP', 60],
  ['P', 200],
  ['M', 300],
  ['G', 300],
  ['GG', 150],
  ['XGG', 60],
];

/**
 * A demo category with the ages Brazilian races set: 18+ from the half marathon up, 16+ for the other
 * runs, any age for walks, 5 to 12 for kids' races.
 */
const km = (name: string, price: number, places = 800): DemoCategory => {
  const distance = Number(/(\d+)\s*km/i.exec(name)?.[1] ?? 0);
  const ages: Pick<DemoCategory, 'minAge' | 'maxAge'> = /kids/i.test(name)
    ? { minAge: 5, maxAge: 12 }
    : /caminhada/i.test(name)
      ? { minAge: null, maxAge: null }
      : { minAge: distance >= 21 ? 18 : 16, maxAge: null };
  return { name, price, places, ...ages };
};

/**
 * Demo events across the Nordeste, dated from the seed day so the demo never goes stale: most 2–10
 * weeks ahead; one closed (deadline yesterday), two over two days, one with a sold-out category. Races
 * fall on a weekend: one-day races on a Sunday, two-day ones on Saturday and Sunday, as the
 * descriptions say.
 */
const demoEvents: DemoEvent[] = [
  {
    name: 'Corrida do Sol Nascente',
    organizer: 'Assessoria Beira-Mar Run',
    city: 'Fortaleza',
    state: 'CE',
    place: 'Aterro da Praia de Iracema',
    startsIn: 4,
    closed: true,
    time: '05:30',
    description:
      'Largada com o sol nascendo no Aterro da Praia de Iracema e percurso plano pela Avenida Beira-Mar, com vista para o mar o tempo todo.',
    days: [[km('5 km', 89.9, 600), km('10 km', 109.9, 400)]],
  },
  {
    name: 'Meia Maratona do Recife',
    organizer: 'Federação Pernambucana de Atletismo',
    city: 'Recife',
    state: 'PE',
    place: 'Marco Zero',
    startsIn: 15,
    description:
      'Do Marco Zero a Boa Viagem, passando pelas pontes do centro histórico. Percurso rápido, ideal para buscar recorde pessoal.',
    days: [[km('21 km', 149.9, 1500), km('10 km', 109.9, 1200), km('5 km', 89.9, 900)]],
  },
  {
    name: 'Desafio das Dunas',
    organizer: 'Natal Trail Eventos',
    city: 'Natal',
    state: 'RN',
    place: 'Parque das Dunas',
    startsIn: 19,
    description:
      'Dois dias de prova, sempre ao amanhecer: no sábado, 5 e 10 km pela Via Costeira; no domingo, o desafio principal entre dunas e a orla de Ponta Negra.',
    days: [
      [km('5 km Via Costeira', 79.9, 500), km('10 km Via Costeira', 99.9, 500)],
      [km('21 km', 159.9, 700), km('Caminhada 3 km', 49.9, 300)],
    ],
  },
  {
    name: 'Corrida Ponta do Seixas',
    organizer: 'Clube de Corredores da Paraíba',
    city: 'João Pessoa',
    state: 'PB',
    place: 'Farol do Cabo Branco',
    startsIn: 23,
    description:
      'Largada no ponto mais oriental das Américas, com chegada na orla do Cabo Branco. As vagas dos 10 km já se esgotaram.',
    days: [[km('5 km', 79.9, 350), km('10 km', 99.9, 0)]],
  },
  {
    name: 'Circuito Farol da Barra',
    organizer: 'Salvador Corre',
    city: 'Salvador',
    state: 'BA',
    place: 'Farol da Barra',
    startsIn: 27,
    description:
      'Percurso pela orla da Barra e de Ondina, com a baía de Todos-os-Santos de um lado e o Atlântico do outro.',
    days: [[km('5 km', 84.9), km('10 km', 104.9), km('Caminhada 3 km', 44.9, 400)]],
  },
  {
    name: 'Corrida da Pajuçara',
    organizer: 'Alagoas Running',
    city: 'Maceió',
    state: 'AL',
    place: 'Praia de Pajuçara',
    startsIn: 31,
    description:
      'Prova matinal entre as piscinas naturais da Pajuçara e a Ponta Verde, com águas verdes no caminho.',
    days: [[km('5 km', 79.9), km('10 km', 99.9)]],
  },
  {
    name: 'Corrida da Orla de Atalaia',
    organizer: 'Sergipe em Movimento',
    city: 'Aracaju',
    state: 'SE',
    place: 'Orla de Atalaia',
    startsIn: 35,
    description:
      'Percurso plano na orla mais famosa de Sergipe, com os Arcos da Orla na largada e na chegada.',
    days: [[km('5 km', 74.9), km('10 km', 94.9)]],
  },
  {
    name: 'Corrida da Ponte Estaiada',
    organizer: 'Teresina Runners',
    city: 'Teresina',
    state: 'PI',
    place: 'Ponte Estaiada João Isidoro França',
    startsIn: 39,
    description: 'Largada bem cedo para fugir do calor, cruzando a Ponte Estaiada sobre o rio Poti.',
    days: [[km('5 km', 74.9), km('10 km', 94.9)]],
  },
  {
    name: 'Meia Maratona Ilha do Amor',
    organizer: 'Maranhão Atletismo',
    city: 'São Luís',
    state: 'MA',
    place: 'Avenida Litorânea',
    startsIn: 44,
    description: 'Pela Avenida Litorânea e o centro histórico de azulejos, patrimônio da humanidade.',
    days: [[km('21 km', 139.9, 900), km('10 km', 99.9), km('5 km', 79.9)]],
  },
  {
    name: 'Corrida do Padre Cícero',
    organizer: 'Cariri Esportes',
    city: 'Juazeiro do Norte',
    state: 'CE',
    place: 'Colina do Horto',
    startsIn: 50,
    description:
      'Subida até a Colina do Horto, aos pés da estátua do Padre Cícero. Prova de montanha para quem gosta de desafio.',
    days: [[km('8 km subida', 94.9, 500), km('Caminhada 4 km', 49.9, 400)]],
  },
  {
    name: 'Corrida do Maior São João',
    organizer: 'Campina Corre',
    city: 'Campina Grande',
    state: 'PB',
    place: 'Parque do Povo',
    startsIn: 56,
    description: 'A corrida mais junina do Brasil: largada no Parque do Povo, com forró na chegada.',
    days: [[km('5 km', 74.9), km('10 km', 94.9)]],
  },
  {
    name: 'Corrida da Liberdade',
    organizer: 'Mossoró Ativa',
    city: 'Mossoró',
    state: 'RN',
    place: 'Estação das Artes',
    startsIn: 62,
    description: 'Em homenagem à abolição pioneira de Mossoró, percurso pelo centro da cidade do sal.',
    days: [[km('5 km', 69.9), km('10 km', 89.9)]],
  },
  {
    name: 'Maratona Internacional de Fortaleza',
    organizer: 'Assessoria Beira-Mar Run',
    city: 'Fortaleza',
    state: 'CE',
    place: 'Praça Portugal',
    startsIn: 63,
    time: '05:00',
    description:
      'O fim de semana da maratona: no sábado, provas curtas e corrida kids; no domingo, maratona e meia pela orla e pelo centro.',
    days: [
      [km('5 km', 79.9, 1000), km('Kids 1 km', 39.9, 300)],
      [km('42 km', 219.9, 800), km('21 km', 159.9, 1200)],
    ],
  },
];

const SATURDAY = 6;
const SUNDAY = 0;

function weekdayOf(date: IsoDate): number {
  return new Date(`${date}T12:00:00Z`).getUTCDay();
}

/** `date` or the first following day that is `weekday` (0 = Sunday). */
function onOrAfter(date: IsoDate, weekday: number): IsoDate {
  return addDays(date, (weekday - weekdayOf(date) + 7) % 7);
}

/** The demo events with their dates worked out from `today`: rows and days ready to insert. */
export function planDemoEvents(today: IsoDate) {
  return demoEvents.map((e) => {
    const startDate = onOrAfter(addDays(today, e.startsIn), e.days.length > 1 ? SATURDAY : SUNDAY);
    const dayDates = e.days.map((_, i) => addDays(startDate, i));
    const endDate = dayDates.at(-1) ?? startDate;
    const deadline = e.closed ? addDays(today, -1) : addDays(startDate, -3);
    const time = e.time ?? '06:00';
    const days = e.days.map((cats, i) => ({
      date: dayDates[i] ?? startDate,
      categories: cats.map((c) => ({
        name: c.name,
        priceCents: reaisToCents(c.price),
        places: c.places,
        minAge: c.minAge,
        maxAge: c.maxAge,
      })),
    }));
    const facts = { ...e, time, deadline, days };
    return {
      row: {
        name: e.name,
        organizer: e.organizer,
        imageUrl: eventPoster({ name: e.name, city: e.city, state: e.state, startDate, endDate }).url,
        city: e.city,
        state: e.state,
        startDate,
        endDate,
        registrationDeadline: deadline,
        time,
        description: e.description,
        regulation: defaultRegulation(facts),
        terms: defaultTerms(facts),
        kitPickupPlace: `${e.place}, ${e.city}/${e.state}`,
        // The two days before the race, as organisers usually do.
        kitPickupHours: [
          `${formatIsoDateBR(addDays(startDate, -2))}, das 10h às 20h`,
          `${formatIsoDateBR(addDays(startDate, -1))}, das 9h às 18h`,
        ].join('\n'),
        offersPcd: e.days.length > 1 || e.startsIn % 2 === 1,
      },
      days,
    };
  });
}

/** Demo running events with days, categories and generated posters. `today` defaults to Fortaleza's. */
export async function seedEvents(
  db: Db,
  today: IsoDate = dateInTimeZone(new Date(), STORE_TIME_ZONE),
): Promise<void> {
  const planned = planDemoEvents(today);

  await db.transaction(async (tx) => {
    const inserted = await tx
      .insert(events)
      .values(planned.map((p) => p.row))
      .returning({ id: events.id });
    // Serial ids follow the VALUES order; sorting makes that explicit rather than trusting RETURNING's order.
    inserted.sort((a, b) => a.id - b.id);
    const dayValues = planned.flatMap((p, i) =>
      p.days.map((d) => ({ eventId: inserted[i]?.id ?? 0, date: d.date })),
    );
    const insertedDays = await tx.insert(eventDays).values(dayValues).returning({ id: eventDays.id });
    insertedDays.sort((a, b) => a.id - b.id);
    const categories = planned
      .flatMap((p) => p.days)
      .flatMap((d, i) =>
        d.categories.map((c) => ({
          dayId: insertedDays[i]?.id ?? 0,
          name: c.name,
          priceCents: c.priceCents,
          placesLeft: c.places,
          minAge: c.minAge,
          maxAge: c.maxAge,
        })),
      );
    const insertedCategories = await tx
      .insert(eventCategories)
      .values(categories)
      .returning({ id: eventCategories.id, priceCents: eventCategories.priceCents });
    insertedCategories.sort((a, b) => a.id - b.id);
    // Early-bird lots on every category of events more than three weeks away: the 1st lot ends a week
    // from the seed day or after 300 places, the 2nd two weeks later; then the full price.
    const lots = planned.flatMap((p, i) => {
      if (demoEvents[i]!.startsIn <= 21) return [];
      const before = planned.slice(0, i).flatMap((q) => q.days.flatMap((d) => d.categories)).length;
      const count = p.days.flatMap((d) => d.categories).length;
      return insertedCategories.slice(before, before + count).flatMap((c) => [
        {
          categoryId: c.id,
          position: 0,
          name: '1º lote',
          priceCents: setPrice(c.priceCents * 0.8),
          untilDate: addDays(today, 7),
          untilCount: 300,
        },
        {
          categoryId: c.id,
          position: 1,
          name: '2º lote',
          priceCents: setPrice(c.priceCents * 0.9),
          untilDate: addDays(today, 21),
          untilCount: null,
        },
      ]);
    });
    if (lots.length) await tx.insert(categoryLots).values(lots);
    // Every kit has a shirt; one event already ran out of its smallest size.
    const kits = inserted.flatMap((e, i) =>
      KIT_SIZES.map(([size, left], position) => ({
        eventId: e.id,
        size,
        left: i === 1 && size === 'PP' ? 0 : left,
        position,
      })),
    );
    await tx.insert(eventKitSizes).values(kits);
    // Kept event answers and pages of a running shop show the new events.
    await notifyEventsChanged(tx);
  });
}

/** A lot's price as an organiser would set it, not as computed: 20% off R$ 79,90 is R$ 63,90, not R$ 63,92. */
export function setPrice(cents: number): number {
  if (cents < 100) return Math.round(cents);
  return Math.floor((cents - 90) / 100) * 100 + 90;
}
