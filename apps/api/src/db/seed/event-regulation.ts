import { formatIsoDateBR } from '@passada/core/calendar';
import { addMinutesToTime, courseTimeLimitMinutes } from '@passada/core/events';
import { formatBRL } from '@passada/core/money';

export interface RegulationFacts {
  name: string;
  organizer: string;
  city: string;
  state: string;
  place: string;
  time: string;
  deadline: string;
  days: Array<{ date: string; categories: Array<{ name: string; priceCents: number; places: number }> }>;
}

function formatDuration(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  const hours = h === 1 ? '1 hora' : `${h} horas`;
  return m === 0 ? hours : `${hours} e ${m} minutos`;
}

/**
 * A demo regulation in the shape Brazilian street races publish them: numbered sections separated by
 * blank lines (the regulation page shows each "N. TÍTULO" line as a heading).
 */
export function regulationText(f: RegulationFacts): string {
  const categoryLines = f.days.flatMap((d) =>
    d.categories.map(
      (c) =>
        `- ${formatIsoDateBR(d.date)}, ${c.name}: ${formatBRL(c.priceCents)} (${c.places > 0 ? `${c.places} vagas` : 'vagas esgotadas'}).`,
    ),
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
  return [
    `REGULAMENTO — ${f.name.toLocaleUpperCase('pt-BR')}`,
    `1. A PROVA\n\nA ${f.name} é organizada por ${f.organizer} e acontece em ${f.city}/${f.state}, com largada às ${f.time} em ${f.place}. A prova é aberta a pessoas de ambos os sexos, devidamente inscritas, com 16 anos completos ou mais na data da prova; menores de 18 anos participam com autorização assinada pelo responsável legal.`,
    `2. PERCURSO\n\nO percurso é sinalizado a cada quilômetro, com postos de hidratação a cada 2,5 km e fiscais ao longo do trajeto. O tempo máximo de prova é de ${formatDuration(longest)}${limits.length > 1 ? ' (na prova mais longa)' : ''}; após esse limite a organização não garante o fechamento do trânsito. O participante que cortar caminho ou não passar por todos os pontos de controle será desclassificado.`,
    `3. CATEGORIAS E VALORES\n\nAs inscrições vão até ${formatIsoDateBR(f.deadline)} (horário de Fortaleza) ou até se esgotarem as vagas de cada categoria:\n\n${categoryLines.join('\n')}\n\nAlém do valor da inscrição, cada participante entrega 1 kg de alimento não perecível na retirada do kit; os alimentos são doados a instituições de ${f.city}.`,
    '4. IDOSOS (60+)\n\nConforme o Estatuto do Idoso (Lei nº 10.741/2003, art. 23), participantes com 60 anos ou mais na data da prova pagam meia-entrada: 50% do valor da categoria. A idade é conferida pela data de nascimento informada na inscrição e pelo documento com foto apresentado na retirada do kit.',
    `5. KIT DO ATLETA\n\nO kit contém camiseta oficial, número de peito com chip descartável, sacola e medalha de participação (entregue após a chegada). A retirada acontece nos dois dias anteriores à prova, em local divulgado por e-mail, mediante documento com foto e o comprovante de inscrição. Kits não retirados no prazo não serão entregues no dia da prova.`,
    `6. PREMIAÇÃO\n\nRecebem troféu os cinco primeiros colocados no geral, masculino e feminino, de cada categoria, pelo tempo bruto (tiro de largada). Nas faixas etárias, a classificação é pelo tempo líquido (chip). Todos os concluintes recebem medalha. ${awards}`,
    '7. DESISTÊNCIA E TRANSFERÊNCIA\n\nO participante pode desistir em até 7 dias após a inscrição, desde que antes do prazo final de inscrição, com devolução integral do valor (Código de Defesa do Consumidor, art. 49). Depois disso não há devolução. A inscrição é pessoal e intransferível.',
    '8. DIREITO DE IMAGEM\n\nAo se inscrever, o participante autoriza o uso gratuito de sua imagem, voz e nome em fotos, filmagens e transmissões da prova, para divulgação do evento e de edições futuras, sem limite de tempo ou território.',
    '9. SAÚDE E SEGURANÇA\n\nO participante declara estar em boas condições de saúde e ter feito avaliação médica recente. Haverá ambulância e equipe de primeiros socorros no percurso e na chegada. A organização pode alterar ou cancelar a prova por motivo de segurança ou força maior, avisando os inscritos por e-mail.',
    '10. DISPOSIÇÕES GERAIS\n\nCasos omissos serão resolvidos pela comissão organizadora. Dúvidas: contato@passada.com.br.',
  ].join('\n\n');
}
