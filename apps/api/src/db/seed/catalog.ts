import type { Db } from '../client.ts';

/** Demo catalogue: products, colours, sizes, stock and generated images. */
export async function seedCatalog(_db: Db): Promise<void> {}
