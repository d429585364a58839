/**
 * A runner's race as the desk reads it aloud: "10 km (peito 1234, Onda A)", with the bib once staff
 * gave one and the start wave when the race has waves (docs/decisions/0066).
 */
export function raceLabel(race: { nome: string; numero_peito: number | null; onda?: string | null }): string {
  const extra = [race.numero_peito ? `peito ${race.numero_peito}` : null, race.onda ?? null].filter(Boolean);
  return extra.length ? `${race.nome} (${extra.join(', ')})` : race.nome;
}
