import type { Drawing } from './product-drawing.ts';

/** The accessories' outlines, seams and trims, front or back, in a 400 × 460 box (product-svg.ts places them). */

export type AccessoryKind =
  | 'garrafa-termica'
  | 'trucker'
  | 'meia-alta'
  | 'bone'
  | 'viseira'
  | 'meia'
  | 'pochete'
  | 'squeeze';

/** Caps, socks, the waist pack and the bottles. */
export function accessoryDrawing(kind: AccessoryKind, front: boolean): Drawing {
  switch (kind) {
    case 'garrafa-termica':
      return {
        body: 'M160 120Q160 104 176 104L224 104Q240 104 240 120L244 430Q244 446 228 446L172 446Q156 446 156 430Z',
        trims: [
          'M168 56L232 56L234 104L166 104Z',
          'M184 56Q184 28 200 28Q216 28 216 56L208 56Q208 38 200 38Q192 38 192 56Z',
        ],
        reflective: ['M157 396L243 396L243 406L157 406Z', 'M166 100L234 100L234 106L166 106Z'],
        details: front ? [] : ['M226 180L238 180', 'M226 240L238 240', 'M226 300L238 300'],
        folds: ['M178 130L176 430'],
        mark: front ? { x: 182, y: 250, scale: 0.95 } : null,
        word: null,
      };
    case 'trucker':
      return {
        body: front
          ? 'M110 270Q108 140 220 132Q322 132 330 270Z'
          : 'M110 270Q108 140 220 132Q322 132 330 270L250 270Q220 226 190 270Z',
        mesh: front
          ? ['M110 270Q108 172 168 146Q150 204 156 270Z', 'M330 270Q326 172 272 146Q290 204 284 270Z']
          : ['M110 270Q108 140 220 132Q322 132 330 270L250 270Q220 226 190 270Z'],
        trims: front
          ? ['M110 270Q50 276 36 306Q150 318 250 276Z', 'M212 134Q220 126 228 134Z']
          : ['M186 256L254 256L254 270L186 270Z', 'M212 134Q220 126 228 134Z'],
        details: front ? ['M156 270Q150 204 168 146', 'M284 270Q290 204 272 146'] : ['M220 132L220 232'],
        folds: front ? ['M200 170Q214 220 210 262'] : [],
        mark: front ? { x: 200, y: 196, scale: 1.1 } : null,
        word: null,
      };
    case 'meia-alta':
      return {
        body: 'M170 24L246 24L248 300Q250 330 282 348L330 376Q362 398 344 430Q332 450 298 444L196 424Q158 414 164 372Z',
        trims: [
          'M168 24L246 24L246 58L168 58Z',
          'M298 444Q332 450 344 430Q362 398 330 376L304 362Q324 402 298 444Z',
        ],
        accents: [
          'M167 150L248 150L248 164L166 164Z',
          'M166 212L248 212L248 226L165 226Z',
          'M165 274L248 274L248 288L165 288Z',
        ],
        details: front
          ? ['M168 72L246 72', 'M164 372Q196 364 214 388']
          : ['M168 72L246 72', 'M196 424Q226 396 252 304'],
        folds: ['M190 90Q198 220 190 340'],
        mark: front ? { x: 190, y: 100, scale: 0.8 } : null,
        word: null,
      };
    case 'bone':
      return {
        body: front
          ? 'M110 270Q108 140 220 132Q322 132 330 270Z'
          : 'M110 270Q108 140 220 132Q322 132 330 270L250 270Q220 226 190 270Z',
        trims: front
          ? ['M110 270Q50 276 36 306Q150 318 250 276Z']
          : ['M190 270Q220 226 250 270L244 270Q220 238 196 270Z'],
        details: ['M220 132L220 270', 'M220 132Q170 180 160 270', 'M220 132Q276 180 290 270'],
        mark: front ? { x: 150, y: 200, scale: 1 } : null,
        word: null,
      };
    case 'viseira':
      return {
        body: 'M104 262Q200 170 296 262L296 288Q200 204 104 288Z',
        trims: front
          ? ['M104 288Q200 204 296 288Q320 330 200 346Q80 330 104 288Z']
          : ['M170 222L230 222L230 238L170 238Z'],
        details: front ? ['M120 300Q200 248 280 300'] : ['M104 262Q200 170 296 262'],
        mark: front ? { x: 186, y: 300, scale: 0.8 } : null,
        word: null,
      };
    case 'meia':
      return {
        body: 'M168 58L248 58L250 292Q252 324 284 342L332 370Q364 392 346 426Q334 446 300 440L196 420Q158 410 164 368Z',
        trims: [
          'M166 58L248 58L248 96L166 96Z',
          'M300 440Q334 446 346 426Q364 392 332 370L306 356Q326 396 300 440Z',
        ],
        details: front
          ? ['M166 110L248 110', 'M166 124L248 124', 'M164 368Q196 360 214 384']
          : ['M166 110L248 110', 'M196 420Q226 392 252 300'],
        mark: front ? { x: 190, y: 180, scale: 0.8 } : null,
        word: null,
      };
    case 'pochete':
      return {
        body: 'M118 214Q118 196 138 196L262 196Q282 196 282 214L290 300Q290 330 260 330L140 330Q110 330 110 300Z',
        trims: front
          ? [
              'M20 236L110 232L110 250L20 254Z',
              'M290 232L380 236L380 254L290 250Z',
              'M360 230L384 230L384 260L360 260Z',
            ]
          : ['M20 236L380 236L380 254L20 254Z'],
        details: front
          ? ['M126 226Q200 212 274 226', 'M150 290L250 290']
          : ['M130 270L270 270', 'M130 290L270 290', 'M130 310L270 310'],
        mark: front ? { x: 186, y: 250, scale: 0.9 } : null,
        word: null,
      };
    case 'squeeze':
      return {
        body: 'M156 150Q150 132 170 128L230 128Q250 132 244 150L252 420Q252 440 232 440L168 440Q148 440 148 420Z',
        trims: ['M166 92L234 92L236 130L164 130Z', 'M190 58L210 58L212 92L188 92Z'],
        details: front
          ? ['M150 230L250 230', 'M150 330L250 330']
          : ['M230 200L244 200', 'M230 260L244 260', 'M230 320L244 320', 'M230 380L244 380'],
        mark: front ? { x: 182, y: 266, scale: 1 } : null,
        word: null,
      };
  }
}
