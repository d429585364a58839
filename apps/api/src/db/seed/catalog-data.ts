import type { ProductCategory } from '@passada/core/contracts/catalog';
import type { GarmentKind, PaletteColor } from '../../modules/catalog/product-images.ts';

/** One demo product; prices in centavos, weights in grams, package dimensions in cm. */
export interface DemoProduct {
  name: string;
  description: string;
  category: ProductCategory;
  kind: GarmentKind;
  priceCents: number;
  colors: PaletteColor[];
  home: boolean;
  /** Average review score in tenths (47 = 4,7). */
  ratingTenths: number;
}

export const APPAREL_SIZES = ['P', 'M', 'G', 'GG'] as const;
export const ONE_SIZE = 'Único';

/** Shipping weight and package per garment kind (folded, in its bag). */
export const packageByKind: Record<GarmentKind, { weightGrams: number; dims: [number, number, number] }> = {
  camiseta: { weightGrams: 180, dims: [30, 22, 3] },
  babylook: { weightGrams: 150, dims: [28, 20, 3] },
  'manga-longa': { weightGrams: 220, dims: [30, 22, 4] },
  'manga-longa-polegar': { weightGrams: 210, dims: [30, 22, 4] },
  regata: { weightGrams: 140, dims: [28, 20, 3] },
  'regata-tela': { weightGrams: 130, dims: [28, 20, 3] },
  'regata-cavada': { weightGrams: 120, dims: [28, 20, 3] },
  top: { weightGrams: 120, dims: [22, 18, 3] },
  'top-nadador': { weightGrams: 110, dims: [22, 18, 3] },
  shorts: { weightGrams: 170, dims: [28, 22, 3] },
  'shorts-split': { weightGrams: 140, dims: [28, 22, 3] },
  'shorts-duplo': { weightGrams: 200, dims: [28, 22, 3] },
  bermuda: { weightGrams: 200, dims: [28, 22, 3] },
  legging: { weightGrams: 240, dims: [30, 22, 4] },
  jaqueta: { weightGrams: 320, dims: [32, 25, 5] },
  'jaqueta-capuz': { weightGrams: 340, dims: [32, 25, 5] },
  bone: { weightGrams: 120, dims: [26, 20, 13] },
  trucker: { weightGrams: 130, dims: [26, 20, 13] },
  viseira: { weightGrams: 90, dims: [25, 20, 8] },
  meia: { weightGrams: 70, dims: [22, 12, 3] },
  'meia-alta': { weightGrams: 90, dims: [30, 12, 3] },
  pochete: { weightGrams: 160, dims: [26, 16, 6] },
  squeeze: { weightGrams: 190, dims: [26, 9, 9] },
  'garrafa-termica': { weightGrams: 380, dims: [27, 9, 9] },
};

/** Sizes a kind is sold in: apparel and socks by size, the rest one size. */
export function sizesForKind(kind: GarmentKind): readonly string[] {
  if (kind === 'meia' || kind === 'meia-alta') return ['P', 'M', 'G'];
  if (
    kind === 'bone' ||
    kind === 'trucker' ||
    kind === 'viseira' ||
    kind === 'pochete' ||
    kind === 'squeeze' ||
    kind === 'garrafa-termica'
  )
    return [ONE_SIZE];
  return APPAREL_SIZES;
}

export const demoProducts: DemoProduct[] = [
  // Feminino
  {
    name: 'Top Fortaleza Alta Sustentação',
    description:
      'Top de alta sustentação com bojo removível e costas nadador. Tecido com proteção UV 50+ e secagem rápida para os treinos no calor da orla.',
    category: 'feminino',
    kind: 'top',
    priceCents: 11990,
    colors: ['coral', 'preto', 'verde-mar'],
    home: true,
    ratingTenths: 48,
  },
  {
    name: 'Legging Compressão Dunas',
    description:
      'Legging de cintura alta com compressão graduada e bolso lateral para o celular. Não fica transparente e acompanha do tiro ao longão.',
    category: 'feminino',
    kind: 'legging',
    priceCents: 18990,
    colors: ['preto', 'azul-marinho', 'vinho'],
    home: true,
    ratingTenths: 49,
  },
  {
    name: 'Regata Dry-Fit Iracema',
    description:
      'Regata leve em tecido dry-fit com recortes em tela nas costas para ventilar. Feita para correr na Beira-Mar ao nascer do sol.',
    category: 'feminino',
    kind: 'regata-tela',
    priceCents: 8990,
    colors: ['rosa-chiclete', 'branco', 'lilas'],
    home: true,
    ratingTenths: 46,
  },
  {
    name: 'Shorts Duplo Beira-Mar',
    description:
      'Shorts com bermuda interna de compressão, cós com cordão e bolso traseiro com zíper. Não sobe durante a passada.',
    category: 'feminino',
    kind: 'shorts-duplo',
    priceCents: 10990,
    colors: ['preto', 'coral', 'azul-ceu'],
    home: true,
    ratingTenths: 47,
  },
  {
    name: 'Camiseta Dry-Fit Corrida do Café',
    description:
      'Camiseta oficial da Corrida do Café, inspirada nos treinos de madrugada na serra de Baturité. Malha dry-fit macia, costuras planas e modelagem feminina.',
    category: 'feminino',
    kind: 'babylook',
    priceCents: 9990,
    colors: ['areia', 'vinho', 'verde-mar'],
    home: true,
    ratingTenths: 45,
  },
  {
    name: 'Jaqueta Corta-Vento Jericoacoara',
    description:
      'Jaqueta corta-vento ultraleve com capuz, repelente à água e detalhes refletivos. Dobra no próprio bolso para levar na pochete.',
    category: 'feminino',
    kind: 'jaqueta',
    priceCents: 25990,
    colors: ['lilas', 'preto'],
    home: true,
    ratingTenths: 48,
  },
  {
    name: 'Camiseta Manga Longa UV Sol do Cariri',
    description:
      'Manga longa com proteção UV 50+ e furo para o polegar, para os treinos sob o sol forte do sertão. Tecido respirável que não esquenta.',
    category: 'feminino',
    kind: 'manga-longa-polegar',
    priceCents: 13990,
    colors: ['amarelo-sol', 'branco'],
    home: false,
    ratingTenths: 44,
  },
  {
    name: 'Top Nadador Maracatu',
    description:
      'Top de média sustentação com estampa inspirada no maracatu e alças largas que não marcam os ombros. Ideal para treinos funcionais e rodagens leves.',
    category: 'feminino',
    kind: 'top-nadador',
    priceCents: 9990,
    colors: ['laranja-caju', 'preto', 'rosa-chiclete'],
    home: false,
    ratingTenths: 43,
  },
  // Masculino
  {
    name: 'Camiseta Dry-Fit Sertão Veloz',
    description:
      'Camiseta de corrida em malha dry-fit com tratamento antiodor e faixas refletivas. Leve, solta no corpo e pronta para o calor nordestino.',
    category: 'masculino',
    kind: 'camiseta',
    priceCents: 9990,
    colors: ['azul-marinho', 'laranja-caju', 'branco'],
    home: true,
    ratingTenths: 47,
  },
  {
    name: 'Regata Performance Praia do Futuro',
    description:
      'Regata cavada em tecido furadinho que seca em minutos. Para longões de domingo e treinos intervalados na areia.',
    category: 'masculino',
    kind: 'regata-cavada',
    priceCents: 8490,
    colors: ['preto', 'verde-limao', 'cinza-mescla'],
    home: true,
    ratingTenths: 46,
  },
  {
    name: 'Shorts 5" Mandacaru com Bolsos',
    description:
      'Shorts de 5 polegadas com cueca interna, dois bolsos laterais para géis e bolso traseiro com zíper para a chave.',
    category: 'masculino',
    kind: 'shorts',
    priceCents: 11990,
    colors: ['preto', 'azul-marinho', 'verde-mar'],
    home: true,
    ratingTenths: 48,
  },
  {
    name: 'Jaqueta Corta-Vento Aracati',
    description:
      'Corta-vento com capuz ajustável, ventilação nas costas e zíper refletivo. Segura o vento forte do litoral leste sem abafar.',
    category: 'masculino',
    kind: 'jaqueta-capuz',
    priceCents: 27990,
    colors: ['preto', 'amarelo-sol'],
    home: true,
    ratingTenths: 47,
  },
  {
    name: 'Camiseta Manga Longa Maratona de Natal',
    description:
      'Manga longa leve com proteção UV para as provas longas ao sol. Costuras planas que evitam assaduras nos quilômetros finais.',
    category: 'masculino',
    kind: 'manga-longa',
    priceCents: 14990,
    colors: ['cinza-mescla', 'azul-ceu'],
    home: true,
    ratingTenths: 45,
  },
  {
    name: 'Bermuda Compressão Chapada',
    description:
      'Bermuda de compressão longa para usar por baixo do shorts ou sozinha. Reduz o atrito e ajuda na recuperação muscular.',
    category: 'masculino',
    kind: 'bermuda',
    priceCents: 16990,
    colors: ['preto', 'azul-marinho'],
    home: true,
    ratingTenths: 44,
  },
  {
    name: 'Regata Treino Orla de Recife',
    description:
      'Regata básica de treino em poliamida macia, com modelagem reta e barra arredondada. Boa para o dia a dia e para a academia.',
    category: 'masculino',
    kind: 'regata',
    priceCents: 7990,
    colors: ['vinho', 'branco', 'azul-ceu'],
    home: false,
    ratingTenths: 42,
  },
  {
    name: 'Shorts Split Lagoa do Paraíso',
    description:
      'Shorts curto com abertura lateral para a passada livre, ideal para tiros e provas de 5 e 10 km. Tecido leve com elastano.',
    category: 'masculino',
    kind: 'shorts-split',
    priceCents: 10990,
    colors: ['coral', 'preto'],
    home: false,
    ratingTenths: 43,
  },
  // Acessórios
  {
    name: 'Boné Dry Running Passada',
    description:
      'Boné de corrida com aba curva, tecido perfurado e faixa interna que absorve o suor. Fecho traseiro ajustável.',
    category: 'acessorios',
    kind: 'bone',
    priceCents: 7990,
    colors: ['preto', 'branco', 'azul-marinho'],
    home: true,
    ratingTenths: 48,
  },
  {
    name: 'Viseira Sol a Pino',
    description:
      'Viseira leve com aba longa e testeira atoalhada para as provas de meio-dia. Ajuste em velcro e logo refletivo.',
    category: 'acessorios',
    kind: 'viseira',
    priceCents: 5990,
    colors: ['branco', 'rosa-chiclete', 'amarelo-sol'],
    home: true,
    ratingTenths: 45,
  },
  {
    name: 'Meia Cano Médio Antibolhas',
    description:
      'Par de meias de cano médio com fio de poliamida, reforço no calcanhar e na ponta e costura sem volume para evitar bolhas.',
    category: 'acessorios',
    kind: 'meia',
    priceCents: 3990,
    colors: ['branco', 'preto', 'coral'],
    home: false,
    ratingTenths: 47,
  },
  {
    name: 'Meia de Compressão Cano Alto',
    description:
      'Meia de compressão graduada até o joelho, que melhora o retorno venoso nos treinos longos e nas viagens de ônibus até a prova.',
    category: 'acessorios',
    kind: 'meia-alta',
    priceCents: 8990,
    colors: ['preto', 'azul-marinho'],
    home: false,
    ratingTenths: 44,
  },
  {
    name: 'Pochete Ultraleve Porta-Celular',
    description:
      'Pochete elástica que não balança, com espaço para celular, chave e dois géis. Tecido resistente ao suor e faixa refletiva.',
    category: 'acessorios',
    kind: 'pochete',
    priceCents: 6990,
    colors: ['preto', 'verde-limao', 'laranja-caju'],
    home: true,
    ratingTenths: 46,
  },
  {
    name: 'Squeeze Térmico 500 ml Sertão Frio',
    description:
      'Garrafa térmica de parede dupla que mantém a água gelada por até 12 horas. Bico esportivo com trava e sem BPA.',
    category: 'acessorios',
    kind: 'garrafa-termica',
    priceCents: 5490,
    colors: ['azul-ceu', 'branco', 'vinho'],
    home: true,
    ratingTenths: 49,
  },
  {
    name: 'Squeeze Leve 600 ml Trilha',
    description:
      'Squeeze de plástico macio fácil de apertar durante a corrida, com marcação de volume e alça para levar na mão.',
    category: 'acessorios',
    kind: 'squeeze',
    priceCents: 3490,
    colors: ['verde-mar', 'coral'],
    home: false,
    ratingTenths: 41,
  },
  {
    name: 'Boné Trucker Caju',
    description:
      'Boné trucker com frente estruturada e tela traseira para ventilar. Para o pós-prova e para os treinos de fim de tarde.',
    category: 'acessorios',
    kind: 'trucker',
    priceCents: 6990,
    colors: ['laranja-caju', 'areia'],
    home: false,
    ratingTenths: 42,
  },
];

/**
 * Quantities dealt in turn to every colour × size combination: mostly in stock, with some sold out (0)
 * and some last units (1), so the product page shows every stock state (spec section 4).
 */
export const stockPattern = [8, 14, 0, 5, 1, 22, 9, 3, 17, 1, 6, 0, 12, 4, 25, 7];
