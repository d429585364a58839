import { caatinga, H, jangada, mandacaru, palm, type Scene, sea, sobrado, W } from './poster-scenery.ts';

/** The cities' scenes (their landmarks) and the skyline of any other city (docs/decisions/0053). */

const scenes: Record<string, Scene> = {
  // The Ponte dos Ingleses running into the sea at Praia de Iracema, jangadas out on the water.
  fortaleza: {
    skies: [
      ['#163a6b', '#f7a46b', '#ffe08a'],
      ['#3b1d5e', '#ff9171', '#ffe3a3'],
    ],
    sun: { x: 690, y: 300, r: 54 },
    draw(random) {
      const deck = 318;
      const piles: string[] = [];
      for (let x = 360; x <= W; x += 34) piles.push(`M${x} ${deck + 10}V${deck + 60}`);
      const truss: string[] = [];
      for (let x = 392; x < W; x += 34)
        truss.push(`M${x} ${deck - 26}L${x + 34} ${deck}M${x} ${deck}L${x + 34} ${deck - 26}`);
      // The Beira-Mar's towers far off across the bay.
      const towers: string[] = [];
      for (let x = 0; x < 330; x += 14 + Math.round(random() * 16)) {
        const h = 14 + Math.round(random() * 44);
        towers.push(
          `<rect x="${x}" y="${deck + 8 - h}" width="${10 + Math.round(random() * 8)}" height="${h}"/>`,
        );
      }
      return [
        `<g fill="#2b3f5c" opacity=".45">${towers.join('')}</g>`,
        sea(deck + 8, '#2a8c9c', '#0f4d63', 690, random),
        `<path d="${piles.join('')}" stroke="#3a2b24" stroke-width="6"/>`,
        `<rect x="350" y="${deck}" width="${W - 350}" height="12" fill="#4a3428"/>`,
        `<path d="${truss.join('')}M392 ${deck - 26}H${W}" fill="none" stroke="#4a3428" stroke-width="3"/>`,
        // The round pavilion at the pier's end.
        `<path d="M350 ${deck}V${deck - 40}H396V${deck}Z" fill="#e9e2d0"/><path d="M342 ${deck - 40}Q373 ${deck - 76} 404 ${deck - 40}Z" fill="#b5452f"/>`,
        jangada(80 + Math.round(random() * 140), 380, 60, '#f4efe4'),
        jangada(240 + Math.round(random() * 60), 350, 34, '#ffd166'),
        jangada(480 + Math.round(random() * 200), 424, 80, '#fff7ea'),
      ].join('');
    },
  },
  // Marco Zero in Recife Antigo: the old port's painted sobrados, the bridge's arches over the Capibaribe
  // and the Torre de Cristal on the reef across the water.
  recife: {
    skies: [['#12355b', '#f29e6d', '#ffe6a7']],
    sun: { x: 300, y: 250, r: 46 },
    draw(random) {
      const street = 338;
      const walls = ['#f2c14e', '#e76f51', '#2a9d8f', '#f4a6b7', '#8ecae6', '#f7ede2'];
      const houses: string[] = [];
      let x = 0;
      let i = 0;
      while (x < W) {
        const w = 62 + Math.round(random() * 30);
        houses.push(sobrado(x, street, w, 76 + Math.round(random() * 22), walls[i % walls.length]!));
        x += w + 2;
        i += 1;
      }
      const arches: string[] = [];
      for (let a = 0; a < 6; a += 1) {
        const ax = 40 + a * 125;
        arches.push(`M${ax} 430Q${ax + 62} 386 ${ax + 125} 430`);
      }
      return [
        houses.join(''),
        `<rect y="${street}" width="${W}" height="14" fill="#c9b79c"/>`,
        sea(street + 14, '#2f6f8f', '#173e59', null, random),
        `<rect x="0" y="392" width="${W}" height="12" fill="#e8dfcc"/><path d="${arches.join('')}" fill="none" stroke="#e8dfcc" stroke-width="11"/>`,
        // The Torre de Cristal: a slender tower with a flower of glass on top, on the reef across the river.
        '<rect x="716" y="250" width="12" height="130" fill="#f1ece1"/><ellipse cx="722" cy="244" rx="20" ry="13" fill="#9ad1d4"/><ellipse cx="722" cy="382" rx="36" ry="6" fill="#3b3b3b"/>',
        // The quay of the Marco Zero with its compass rose.
        '<rect y="470" width="800" height="30" fill="#bfae92"/><g transform="translate(120 486) scale(.5 .3)" fill="#7a5c3e"><path d="M0 -34L8 -8L34 0L8 8L0 34L-8 8L-34 0L-8 -8Z"/><circle r="44" fill="none" stroke="#7a5c3e" stroke-width="5"/></g>',
      ].join('');
    },
  },
  // The Morro do Careca over Ponta Negra: a tall bare dune wrapped in green, the surf at its foot.
  natal: {
    skies: [['#0f4c81', '#9ad0ec', '#fff6c9']],
    sun: { x: 210, y: 300, r: 48 },
    draw(random) {
      return [
        '<path d="M380 330Q480 330 540 220Q580 150 610 150Q650 150 700 240Q740 310 800 320V350H380Z" fill="#2f6b3a"/>',
        '<path d="M520 330Q560 250 598 170Q612 150 626 172Q650 240 690 330Z" fill="#f2d19b"/>',
        '<path d="M560 330Q590 240 606 180Q616 250 640 330Z" fill="#e6b878"/>',
        sea(330, '#1d9bb2', '#0b5a78', 210, random),
        '<path d="M0 470Q300 440 800 462V500H0Z" fill="#f3dfae"/>',
        '<path d="M0 450Q300 420 800 444" fill="none" stroke="#fff" stroke-width="6" opacity=".7"/>',
        palm(60, 470, 120, 18, '#1e3d2a'),
        palm(110, 478, 90, -10, '#1e3d2a'),
      ].join('');
    },
  },
  // The Ponta do Seixas, where the Americas see the sun first, and the Farol do Cabo Branco on its cliff.
  'joao pessoa': {
    skies: [['#1b2f5e', '#f6a96b', '#fff0b3']],
    sun: { x: 420, y: 338, r: 60 },
    draw(random) {
      return [
        sea(336, '#2b7fa3', '#12405e', 420, random),
        '<path d="M560 336Q580 250 640 236L800 226V500H600Q620 420 560 336Z" fill="#c4623a"/>',
        '<path d="M560 336Q580 250 640 236L800 226V250L650 258Q600 280 590 340Z" fill="#2f7a43"/>',
        '<path d="M600 360Q640 320 700 320M620 410Q660 380 740 380" stroke="#a24a28" stroke-width="5" fill="none"/>',
        // The lighthouse: a three-pointed star seen from the side, tapering to its lantern.
        '<path d="M680 240L700 120L708 120L728 240Z" fill="#f4efe4"/><path d="M660 240L704 160L748 240Z" fill="#e4dccb"/><rect x="697" y="100" width="14" height="22" fill="#2b3a55"/><path d="M694 100L704 88L714 100Z" fill="#b5452f"/>',
      ].join('');
    },
  },
  // The Farol da Barra on the Forte de Santo Antônio, the bay at sunset.
  salvador: {
    skies: [['#2d1b4e', '#ff8a5b', '#ffd48a']],
    sun: { x: 250, y: 320, r: 58 },
    draw(random) {
      return [
        sea(340, '#2c5d8a', '#102c4a', 250, random),
        '<path d="M470 340Q500 300 560 300H800V380H460Z" fill="#3d3a36"/>',
        // The fort's walls, the lighthouse tower with its black band, the lantern.
        '<path d="M520 304L540 262H760L780 304Z" fill="#efe6d2"/><path d="M540 262L546 250H754L760 262Z" fill="#d9cdb3"/>',
        '<path d="M612 250L620 130H660L668 250Z" fill="#f7f2e7"/><rect x="616" y="172" width="48" height="26" fill="#1d1d1f"/>',
        '<rect x="622" y="104" width="36" height="28" fill="#1d1d1f"/><rect x="628" y="110" width="24" height="16" fill="#ffe08a"/><path d="M618 104L640 86L662 104Z" fill="#1d1d1f"/>',
        '<path d="M0 480Q400 450 800 476V500H0Z" fill="#e9c98f"/>',
        palm(760, 300, 110, -16, '#2a2030'),
      ].join('');
    },
  },
  // Pajuçara's green water and its jangadas going out to the reef pools, palms on the beach.
  maceio: {
    skies: [['#0e5a8a', '#8fd3e8', '#fffbe0']],
    sun: { x: 640, y: 150, r: 40 },
    draw(random) {
      return [
        sea(300, '#39c3b5', '#0f8a8f', null, random),
        '<ellipse cx="520" cy="360" rx="140" ry="12" fill="#8fe0cf" opacity=".6"/>',
        jangada(420, 360, 70, '#f25c54'),
        jangada(560, 340, 52, '#f7b801'),
        jangada(680, 380, 86, '#4361ee'),
        jangada(300, 330, 34, '#fffdf5'),
        '<path d="M0 430Q260 400 520 440T800 430V500H0Z" fill="#f6e3b4"/>',
        palm(60, 470, 170, 30, '#14532d'),
        palm(150, 460, 130, -20, '#166534'),
        palm(760, 470, 150, -26, '#14532d'),
      ].join('');
    },
  },
  // The Orla de Atalaia: its big arches on the seafront promenade, palms and the open sea.
  aracaju: {
    skies: [['#1a4f7a', '#f5b971', '#fff2c2']],
    sun: { x: 600, y: 250, r: 44 },
    draw(random) {
      const arches = [0, 1, 2, 3]
        .map((i) => {
          const x = 330 + i * 112;
          return `<path d="M${x} 400V300Q${x + 50} 228 ${x + 100} 300V400H${x + 84}V304Q${x + 50} 256 ${x + 16} 304V400Z" fill="#f4efe4"/>`;
        })
        .join('');
      return [
        sea(320, '#2f93b8', '#145c82', 600, random),
        '<path d="M0 380H800V500H0Z" fill="#d9c7a0"/><path d="M0 392H800" stroke="#b35c44" stroke-width="8"/>',
        arches,
        palm(120, 420, 150, 20, '#1f4d2e'),
        palm(240, 410, 120, -12, '#1f4d2e'),
        palm(790, 430, 140, -24, '#1f4d2e'),
      ].join('');
    },
  },
  // The Ponte Estaiada over the Poti: one tall mast with its lookout and the cables fanning to the deck.
  teresina: {
    skies: [['#7a2e1f', '#f6a04d', '#ffe3a1']],
    sun: { x: 260, y: 240, r: 70 },
    draw(random) {
      const cables: string[] = [];
      for (let i = 1; i <= 8; i += 1) {
        cables.push(`M590 ${150 + i * 10}L${590 - i * 52} 352M590 ${150 + i * 10}L${590 + i * 30} 352`);
      }
      return [
        '<path d="M0 350Q200 330 400 344T800 340V360H0Z" fill="#4d6b3a"/>',
        sea(356, '#5a8f7b', '#2d5648', null, random),
        `<path d="${cables.join('')}" stroke="#f4efe4" stroke-width="2"/>`,
        '<path d="M584 352L586 80H594L596 352Z" fill="#f4efe4"/><rect x="574" y="70" width="32" height="22" rx="4" fill="#e4dccb"/>',
        '<rect x="0" y="348" width="800" height="10" fill="#d8d2c4"/>',
        // Carnaúbas on the banks.
        palm(60, 356, 130, 6, '#2c3b22'),
        palm(740, 356, 120, -6, '#2c3b22'),
      ].join('');
    },
  },
  // The tiled sobrados of São Luís's old centre on a cobbled street.
  'sao luis': {
    skies: [['#14507a', '#8fcfe6', '#fff5cc']],
    sun: { x: 700, y: 120, r: 36 },
    draw(random) {
      const walls = ['#f7f3ea', '#fbd38d', '#f7f3ea', '#9ed2c6', '#f7f3ea', '#f4a6a6'];
      const houses: string[] = [
        '<defs><pattern id="azulejo" width="16" height="16" patternUnits="userSpaceOnUse"><path d="M8 1L15 8L8 15L1 8Z" fill="none" stroke="#2f5d9c" stroke-width="1.6" opacity=".55"/><circle cx="8" cy="8" r="2" fill="#2f5d9c" opacity=".55"/></pattern></defs>',
      ];
      let x = 300;
      let i = 0;
      while (x < W) {
        const w = 92 + Math.round(random() * 26);
        houses.push(
          sobrado(x, 420, w, 200 + Math.round(random() * 30), walls[i % walls.length]!, i % 2 === 0),
        );
        x += w;
        i += 1;
      }
      return [
        houses.join(''),
        '<rect y="420" width="800" height="80" fill="#8d7a66"/>',
        '<path d="M0 440H800M0 462H800M0 486H800" stroke="#6f604f" stroke-width="2"/>',
        '<rect x="300" y="412" width="500" height="8" fill="#5a4a3a" opacity=".35"/>',
      ].join('');
    },
  },
  // The Horto over Juazeiro do Norte: Padre Cícero's statue on the hill, the sertão around it.
  'juazeiro do norte': {
    skies: [['#8a3b12', '#f7a440', '#fff0b8']],
    sun: { x: 250, y: 270, r: 80 },
    draw(random) {
      return [
        '<path d="M300 380Q440 300 560 250Q620 232 680 258Q760 300 800 330V500H300Z" fill="#8b5a2b"/>',
        '<path d="M0 400Q200 360 400 390T800 380V500H0Z" fill="#b9773a"/>',
        // The statue: cassock, hat and staff.
        '<path d="M604 244L610 150H632L638 244Z" fill="#f4efe4"/><circle cx="621" cy="140" r="11" fill="#f4efe4"/><path d="M603 132H639L633 124H609Z" fill="#f4efe4"/><path d="M640 160L646 244" stroke="#f4efe4" stroke-width="4"/>',
        '<rect x="596" y="240" width="50" height="12" fill="#e4dccb"/>',
        caatinga(404, '#5e4a22', random),
        mandacaru(120, 440, 110, '#3f6b35'),
        mandacaru(720, 470, 80, '#3f6b35'),
      ].join('');
    },
  },
  // Campina Grande's São João: the Parque do Povo's pyramid, a bonfire and flag garlands on a June night.
  'campina grande': {
    skies: [['#0d1333', '#3b2a6b', '#ffd166']],
    sun: null,
    draw(random) {
      const flags: string[] = [];
      const colors = ['#ef476f', '#ffd166', '#06d6a0', '#118ab2', '#f78c6b'];
      for (const [row, sag] of [
        [240, 30],
        [290, 24],
      ] as const) {
        flags.push(
          `<path d="M0 ${row}Q400 ${row + sag * 2} 800 ${row}" fill="none" stroke="#f4efe4" stroke-width="1.5"/>`,
        );
        for (let x = 10, k = 0; x < W; x += 30, k += 1) {
          const t = x / W;
          const y = row + sag * 4 * t * (1 - t) * 1;
          flags.push(
            `<path d="M${x} ${y.toFixed(0)}h18v18l-9 -6l-9 6Z" fill="${colors[k % colors.length]}"/>`,
          );
        }
      }
      const stars: string[] = [];
      for (let i = 0; i < 40; i += 1) {
        stars.push(
          `<circle cx="${Math.round(random() * W)}" cy="${20 + Math.round(random() * 200)}" r="1.4"/>`,
        );
      }
      return [
        `<g fill="#fff" opacity=".7">${stars.join('')}</g>`,
        '<path d="M0 380H800V500H0Z" fill="#3a2416"/>',
        // The pyramid of the Parque do Povo, lit.
        '<path d="M470 380L600 230L730 380Z" fill="#f4a259"/><path d="M600 230L730 380H600Z" fill="#c8733a"/>',
        flags.join(''),
        // The bonfire.
        '<ellipse cx="300" cy="420" rx="120" ry="40" fill="#ffb703" opacity=".22"/><path d="M260 430L340 400M262 400L338 430" stroke="#6b3e1f" stroke-width="10"/><path d="M300 410Q270 380 290 340Q296 370 306 356Q300 330 318 310Q340 360 324 390Q340 380 336 360Q356 400 300 410Z" fill="#ff8c1a"/><path d="M300 410Q286 390 300 368Q310 384 318 378Q320 400 300 410Z" fill="#ffd166"/>',
      ].join('');
    },
  },
  // Mossoró, where the sertão meets the sea's salt: white salt pans, oil pumps and mandacarus.
  mossoro: {
    skies: [['#1f4e79', '#f2b36b', '#fff1c1']],
    sun: { x: 650, y: 200, r: 60 },
    draw(random) {
      const pump = (x: number, y: number) =>
        `<g fill="none" stroke="#2a2a2e" stroke-width="5"><path d="M${x} ${y}L${x + 20} ${y - 60}L${x + 40} ${y}"/><path d="M${x - 30} ${y - 70}L${x + 70} ${y - 56}"/><path d="M${x + 64} ${y - 56}Q${x + 84} ${y - 40} ${x + 66} ${y - 20}V${y}"/></g><rect x="${x - 40}" y="${y - 80}" width="24" height="18" fill="#2a2a2e"/>`;
      return [
        '<path d="M0 340Q200 320 400 336T800 330V500H0Z" fill="#c98f4b"/>',
        '<rect y="380" width="800" height="120" fill="#d9d4c7"/>',
        '<path d="M0 380H800M0 420H800M0 460H800M200 380V500M470 380V500" stroke="#b5ad9a" stroke-width="3"/>',
        // Salt heaps.
        '<path d="M40 380L110 300L180 380Z" fill="#fbfaf6"/><path d="M110 300L180 380H110Z" fill="#e6e2d8"/><path d="M150 380L200 324L250 380Z" fill="#fbfaf6"/>',
        pump(560, 340),
        pump(700, 336),
        caatinga(342, '#6b5a2a', random, 280, 540),
        mandacaru(460, 380, 90, '#3f6b35'),
      ].join('');
    },
  },
};

/** A city's key in `scenes`: lower case, without accents. */
function sceneKey(city: string): string {
  return city
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .trim();
}

/** Whether `city` has its own scene (its landmark) rather than the generic skyline. */
export function hasCityScene(city: string): boolean {
  return Object.hasOwn(scenes, sceneKey(city));
}

/** Any other city: a seafront skyline of random towers at dawn. */
const skylineScene: Scene = {
  skies: [
    ['#1d3b6e', '#f59e5b', '#ffd166'],
    ['#3a1c71', '#ff8c69', '#ffe29a'],
    ['#0f4c5c', '#f6bd60', '#fff1b8'],
    ['#14213d', '#fca311', '#ffe8a3'],
  ],
  sun: { x: 600, y: 300, r: 80 },
  draw(random, sky) {
    const shore = 340;
    const buildings: string[] = [];
    let x = 0;
    while (x < W) {
      const w = 24 + Math.round(random() * 46);
      const h = 30 + Math.round(random() * (x < 420 ? 40 : 110));
      buildings.push(`<rect x="${x}" y="${shore - h}" width="${w}" height="${h}"/>`);
      for (let wy = shore - h + 10; wy < shore - 12; wy += 18) {
        if (random() > 0.6)
          buildings.push(
            `<rect x="${x + 6}" y="${wy}" width="6" height="8" fill="${sky[2]}" opacity="0.7"/>`,
          );
      }
      x += w + 2 + Math.round(random() * 10);
    }
    return [
      `<g fill="#16213a">${buildings.join('')}</g>`,
      sea(shore, '#1f7a8c', '#0e3f4c', 600, random),
      `<path d="M0 ${H - 40} Q${W / 2} ${H - 80} ${W} ${H - 30} V${H} H0 Z" fill="#f3d9a4"/>`,
    ].join('');
  },
};

/** The scene of `city`: its own, or the seafront skyline. */
export function sceneFor(city: string): Scene {
  return scenes[sceneKey(city)] ?? skylineScene;
}
