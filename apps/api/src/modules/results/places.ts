import type { ResultStatus } from '@passada/core/results';

/**
 * The places the shop gives (docs/decisions/0064). Each category is a race (one distance on one day):
 * - overall (`geral`) and by gender: by gun time, the official time (CBAt Norma 07);
 * - by age group (the timing export's `M35-39`, gender included): by net time, gun time when the
 *   file has none;
 * - equal times share a place and the next place is skipped (1, 2, 2, 4);
 * - only finishers (`OK`) are placed; DNF, DSQ and DNS have no place.
 */
export interface Placeable {
  categoryId: number;
  gender: string;
  ageGroup: string;
  status: ResultStatus;
  gunMs: number | null;
  netMs: number | null;
}

export interface Places {
  placeOverall: number | null;
  placeGender: number | null;
  placeAgeGroup: number | null;
}

/** Places in `items`' order: competition ranking ("1224") of each group by the time `timeOf` reads. */
function rank<T>(items: T[], groupOf: (t: T) => string, timeOf: (t: T) => number): Map<T, number> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = groupOf(item);
    const list = groups.get(key);
    if (list) list.push(item);
    else groups.set(key, [item]);
  }
  const places = new Map<T, number>();
  for (const list of groups.values()) {
    list.sort((a, b) => timeOf(a) - timeOf(b));
    list.forEach((item, i) => {
      const previous = list[i - 1];
      places.set(item, previous && timeOf(previous) === timeOf(item) ? places.get(previous)! : i + 1);
    });
  }
  return places;
}

export function computePlaces<T extends Placeable>(results: T[]): Array<T & Places> {
  const finishers = results.filter((r) => r.status === 'OK' && r.gunMs !== null);
  const gun = (r: T) => r.gunMs!;
  const overall = rank(finishers, (r) => String(r.categoryId), gun);
  const gender = rank(finishers, (r) => `${r.categoryId}|${r.gender}`, gun);
  const ageGroup = rank(
    finishers,
    (r) => `${r.categoryId}|${r.ageGroup}`,
    (r) => r.netMs ?? r.gunMs!,
  );
  return results.map((r) => ({
    ...r,
    placeOverall: overall.get(r) ?? null,
    placeGender: gender.get(r) ?? null,
    placeAgeGroup: ageGroup.get(r) ?? null,
  }));
}
