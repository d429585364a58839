import type { Db } from '../client.ts';

/** Demo running events with days, categories and generated images. */
export async function seedEvents(_db: Db): Promise<void> {}
