import { eq } from 'drizzle-orm';
import type { GarmentKind } from '../../modules/catalog/product-images.ts';
import type { Db } from '../client.ts';
import { fiscalSettings, fiscalTaxRules, productFiscal, products } from '../schema/index.ts';
import { demoProducts } from './catalog-data.ts';

/** The NCM of each demo garment kind (TIPI), all of national origin. */
const NCM_BY_KIND: Record<GarmentKind, string> = {
  camiseta: '61091000',
  babylook: '61091000',
  'manga-longa': '61091000',
  'manga-longa-polegar': '61091000',
  regata: '61091000',
  'regata-tela': '61091000',
  'regata-cavada': '61091000',
  top: '62121000',
  'top-nadador': '62121000',
  shorts: '61034300',
  'shorts-split': '61034300',
  bermuda: '61034300',
  'shorts-duplo': '61034300',
  legging: '61046300',
  jaqueta: '62014000',
  'jaqueta-capuz': '62014000',
  bone: '65050022',
  trucker: '65050022',
  viseira: '65069900',
  meia: '61159500',
  'meia-alta': '61159500',
  pochete: '42022220',
  squeeze: '39241000',
  'garrafa-termica': '96170010',
};

/**
 * The demo shop's fiscal settings (docs/decisions/0043): the company of the site's footer in Fortaleza,
 * Simples Nacional, CFOP 5102 inside Ceará and 6108 to consumers in other states, CSOSN 102, and
 * registrations as "competições esportivas" (item 12.11 of LC 116). Notas are issued by the offline
 * issuer, "SEM VALOR FISCAL".
 */
export async function seedFiscal(db: Db): Promise<void> {
  await db
    .insert(fiscalSettings)
    .values({
      id: 1,
      cnpj: '12ABC34501DE35',
      ie: '061234567',
      im: '1234567',
      legalName: 'Passada Artigos Esportivos Ltda.',
      regime: 'simples_nacional',
      street: 'Av. Beira Mar',
      number: '3000',
      district: 'Meireles',
      city: 'Fortaleza',
      cityCode: '2304400',
      uf: 'CE',
      cep: '60165121',
      nfseServiceCode: '12.11',
      nfseNationalCode: '121101',
      nfeSeries: 1,
    })
    .onConflictDoNothing();
  await db
    .insert(fiscalTaxRules)
    .values([
      {
        destination: 'interna',
        cfop: '5102',
        icmsSituation: '102',
        pisSituation: '49',
        cofinsSituation: '49',
      },
      {
        destination: 'interestadual',
        cfop: '6108',
        icmsSituation: '102',
        pisSituation: '49',
        cofinsSituation: '49',
      },
    ])
    .onConflictDoNothing();
  for (const p of demoProducts) {
    const [row] = await db.select({ id: products.id }).from(products).where(eq(products.name, p.name));
    if (row)
      await db
        .insert(productFiscal)
        .values({ productId: row.id, ncm: NCM_BY_KIND[p.kind], origin: 0 })
        .onConflictDoNothing();
  }
}
