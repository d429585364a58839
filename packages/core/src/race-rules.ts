/**
 * Who may run a category and what an event's own regulation and termo say (docs/product.md §4): the
 * organiser's age limits per category (on the race day), the timing company's age groups, and the
 * default texts built from the event's own categories. No clock, no I/O.
 */
import { formatIsoDateBR, type IsoDate } from './calendar.ts';
import { addMinutesToTime, ageOn, courseTimeLimitMinutes } from './events.ts';
import { formatBRL } from './money.ts';
import { plural } from './plural.ts';

/** A category's age limits, in full years on its race day; null is no limit. */
export interface AgeLimits {
  minAge: number | null;
  maxAge: number | null;
}

/** "a partir de 18 anos", "de 7 a 12 anos", "até 12 anos"; null when anyone may run. */
export function describeAgeLimits({ minAge, maxAge }: AgeLimits): string | null {
  if (minAge !== null && maxAge !== null) return `de ${minAge} a ${maxAge} anos`;
  if (minAge !== null) return `a partir de ${minAge} anos`;
  if (maxAge !== null) return `até ${maxAge} anos`;
  return null;
}

/**
 * Why this person may not run the category, in Portuguese, or null when they may. The age is the
 * one on the category's race day (a birthday on that very day counts), as race regulations put it.
 */
export function ageLimitProblem(
  birthDate: IsoDate,
  raceDate: IsoDate,
  category: AgeLimits & { name: string },
): string | null {
  if (birthDate > raceDate) return 'Informe uma data de nascimento válida.';
  const age = ageOn(birthDate, raceDate);
  const within =
    (category.minAge === null || age >= category.minAge) &&
    (category.maxAge === null || age <= category.maxAge);
  if (within) return null;
  return `A categoria ${category.name} é para quem tem ${describeAgeLimits(category)} no dia da prova (${formatIsoDateBR(raceDate)}); nessa data o participante terá ${age} ${age === 1 ? 'ano' : 'anos'}.`;
}

/**
 * The timing company's age group: the first letter of the gender and the five-year band of the age
 * on the race day, at every age ("M35-39", "F20-24", "F5-9", "M80-84").
 */
export function timingAgeGroup(gender: string, birthDate: IsoDate, raceDate: IsoDate): string {
  const letter = gender.trim().charAt(0).toUpperCase() || 'X';
  const from = Math.floor(ageOn(birthDate, raceDate) / 5) * 5;
  return `${letter}${from}-${from + 4}`;
}

/** What the default regulation and termo are built from: the event as the form or the seed holds it. */
export interface RegulationFacts {
  name: string;
  organizer: string;
  city: string;
  state: string;
  /** Where the start is; empty when unknown. */
  place: string;
  time: string;
  deadline: IsoDate;
  days: Array<{
    date: IsoDate;
    categories: Array<{ name: string; priceCents: number; places: number } & AgeLimits>;
  }>;
}

function formatDuration(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  const hours = plural(h, 'hora', 'horas');
  return m === 0 ? hours : `${hours} e ${plural(m, 'minuto', 'minutos')}`;
}

const categoriesOf = (f: RegulationFacts) => f.days.flatMap((d) => d.categories);

/** Whether some category takes runners under 18 (no minimum, or one below 18). */
function admitsMinors(f: RegulationFacts): boolean {
  return categoriesOf(f).some((c) => c.minAge === null || c.minAge < 18);
}

/** Section 1's sentence on who may run, from the categories' own limits. */
function whoMayRun(f: RegulationFacts): string {
  const limits = categoriesOf(f).map((c) => ({ name: c.name, text: describeAgeLimits(c) }));
  const guardian = admitsMinors(f)
    ? ' Menores de 18 anos participam com autorização assinada pelo responsável legal, entregue na retirada do kit.'
    : '';
  if (limits.every((l) => l.text === null))
    return `A prova é aberta a pessoas de ambos os sexos, devidamente inscritas, sem limite de idade.${guardian}`;
  const same = limits.every((l) => l.text === limits[0]?.text);
  const rule = same
    ? `${limits[0]?.text} na data da prova`
    : `com a idade de cada categoria na data da prova: ${limits
        .map((l) => `${l.name}, ${l.text ?? 'livre'}`)
        .join('; ')}`;
  return `A prova é aberta a pessoas de ambos os sexos, devidamente inscritas, ${rule}.${guardian}`;
}

/**
 * A default regulation in the shape Brazilian street races publish them: numbered sections separated
 * by blank lines (the regulation page shows each "N. TÍTULO" line as a heading), built from the event's
 * own categories, prices, places and age limits. The organiser edits it in the back office.
 */
export function defaultRegulation(f: RegulationFacts): string {
  const categoryLines = f.days.flatMap((d) =>
    d.categories.map((c) => {
      const age = describeAgeLimits(c);
      return `- ${formatIsoDateBR(d.date)}, ${c.name}${age ? ` (${age})` : ''}: ${formatBRL(c.priceCents)} (${c.places > 0 ? plural(c.places, 'vaga', 'vagas') : 'vagas esgotadas'}).`;
    }),
  );
  // Awards start when the day's course closes, so nobody still running misses them.
  const limits = f.days.map((d) => ({
    date: d.date,
    minutes: courseTimeLimitMinutes(d.categories.map((c) => c.name)),
  }));
  const longest = Math.max(...limits.map((l) => l.minutes));
  const awards =
    limits.length === 1
      ? `A premiação começa às ${addMinutesToTime(f.time, longest)}, ao fim do tempo máximo de prova.`
      : `A premiação de cada dia começa ao fim do tempo máximo da prova mais longa do dia: ${limits
          .map((l) => `${formatIsoDateBR(l.date)} às ${addMinutesToTime(f.time, l.minutes)}`)
          .join('; ')}.`;
  const where = f.place ? ` em ${f.place}` : '';
  return [
    `REGULAMENTO — ${f.name.toLocaleUpperCase('pt-BR')}`,
    `1. A PROVA\n\nA prova ${f.name} é organizada por ${f.organizer} e acontece em ${f.city}/${f.state}, com largada às ${f.time}${where}. ${whoMayRun(f)} A idade é conferida pela data de nascimento informada na inscrição e pelo documento com foto apresentado na retirada do kit.`,
    `2. PERCURSO\n\nO percurso é sinalizado a cada quilômetro, com postos de hidratação a cada 2,5 km e fiscais ao longo do trajeto. O tempo máximo de prova é de ${formatDuration(longest)}${limits.length > 1 ? ' (na prova mais longa)' : ''}; após esse limite a organização não garante o fechamento do trânsito. O participante que cortar caminho ou não passar por todos os pontos de controle será desclassificado.`,
    `3. CATEGORIAS E VALORES\n\nAs inscrições vão até ${formatIsoDateBR(f.deadline)} (horário de Fortaleza) ou até se esgotarem as vagas de cada categoria:\n\n${categoryLines.join('\n')}\n\nAlém do valor da inscrição, cada participante entrega 1 kg de alimento não perecível na retirada do kit; os alimentos são doados a instituições de ${f.city}.`,
    '4. IDOSOS (60+)\n\nConforme o Estatuto do Idoso (Lei nº 10.741/2003, art. 23), participantes com 60 anos ou mais na data da prova pagam meia-entrada: 50% do valor da categoria. A idade é conferida pela data de nascimento informada na inscrição e pelo documento com foto apresentado na retirada do kit.',
    '5. KIT DO ATLETA\n\nO kit contém camiseta oficial, número de peito com chip descartável, sacola e medalha de participação (entregue após a chegada). A retirada acontece nos dois dias anteriores à prova, em local divulgado por e-mail, mediante documento com foto e o comprovante de inscrição. Kits não retirados no prazo não serão entregues no dia da prova.',
    `6. PREMIAÇÃO\n\nRecebem troféu os cinco primeiros colocados no geral, masculino e feminino, de cada categoria, pelo tempo bruto (tiro de largada). Nas faixas etárias, a classificação é pelo tempo líquido (chip). Todos os concluintes recebem medalha. ${awards}`,
    '7. DESISTÊNCIA E TRANSFERÊNCIA\n\nO participante pode desistir em até 7 dias após a inscrição, desde que antes do prazo final de inscrição, com devolução integral do valor (Código de Defesa do Consumidor, art. 49). Depois disso não há devolução. A inscrição é pessoal e intransferível.',
    '8. DIREITO DE IMAGEM\n\nAo se inscrever, o participante autoriza o uso gratuito de sua imagem, voz e nome em fotos, filmagens e transmissões da prova, para divulgação do evento e de edições futuras, sem limite de tempo ou território.',
    '9. SAÚDE E SEGURANÇA\n\nO participante declara estar em boas condições de saúde e ter feito avaliação médica recente. Haverá ambulância e equipe de primeiros socorros no percurso e na chegada. A organização pode alterar ou cancelar a prova por motivo de segurança ou força maior, avisando os inscritos por e-mail.',
    '10. DISPOSIÇÕES GERAIS\n\nCasos omissos serão resolvidos pela comissão organizadora. Dúvidas: contato@passada.com.br.',
  ].join('\n\n');
}

/**
 * A default termo de responsabilidade for the event: the store's four declarations, plus the legal
 * guardian's when a category takes runners under 18. Saving it makes it the event's own termo (a new
 * version: acceptances record the hash of the exact text).
 */
export function defaultTerms(f: RegulationFacts): string {
  return [
    `Declaro que estou em boas condições de saúde, apto(a) a participar da prova ${f.name} e que treinei adequadamente para ela.`,
    `Assumo os riscos da participação e isento ${f.organizer}, os patrocinadores e a Passada de responsabilidade por acidentes ou danos à saúde, salvo os causados por falha deles.`,
    'Conheço e aceito o regulamento do evento, inclusive os limites de idade de cada categoria e as regras de desistência e de uso de imagem.',
    'Autorizo o atendimento médico de emergência e o contato com a pessoa que indiquei em caso de necessidade.',
    ...(admitsMinors(f)
      ? [
          'Se o participante tiver menos de 18 anos na data da prova, declaro ser seu responsável legal (ou ter a autorização dele) e respondo por estas declarações em seu nome.',
        ]
      : []),
  ].join('\n\n');
}
