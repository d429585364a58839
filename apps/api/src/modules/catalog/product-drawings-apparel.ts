import type { Drawing } from './product-drawing.ts';

/** The apparel's outlines, seams and trims, front or back, in a 400 × 460 box (product-svg.ts places them). */

export type ShirtKind = 'camiseta' | 'babylook' | 'manga-longa-polegar' | 'manga-longa';

/** T-shirts, long sleeves included. */
export function shirtDrawing(kind: ShirtKind, front: boolean): Drawing {
  switch (kind) {
    case 'camiseta': {
      const neck = front ? 'Q200 100 230 62' : 'Q200 76 230 62';
      return {
        body: `M140 72L170 62${neck}L260 72L335 118L306 178L274 160L278 372L122 372L126 160L94 178L65 118Z`,
        details: [
          'M126 160Q134 112 142 74',
          'M274 160Q266 112 258 74',
          'M124 358L276 358',
          `M170 62${front ? 'Q200 112 230 62' : 'Q200 88 230 62'}`,
        ],
        mark: front ? { x: 222, y: 140, scale: 1 } : null,
        word: front ? null : { x: 200, y: 170, size: 26 },
      };
    }
    case 'babylook': {
      const neck = front ? 'Q200 118 232 66' : 'Q200 80 232 66';
      return {
        body: `M146 76L168 66${neck}L254 76L316 116L294 164L266 152Q258 220 272 290Q280 334 270 372L130 372Q120 334 128 290Q142 220 134 152L106 164L84 116Z`,
        details: [
          'M134 152Q140 112 146 78',
          'M266 152Q260 112 254 78',
          'M132 358Q200 366 268 358',
          `M168 66${front ? 'Q200 128 232 66' : 'Q200 90 232 66'}`,
        ],
        folds: ['M160 200Q172 290 160 356', 'M240 200Q230 290 244 356'],
        mark: front ? { x: 218, y: 150, scale: 0.9 } : null,
        word: front ? null : { x: 200, y: 176, size: 24 },
      };
    }
    case 'manga-longa-polegar': {
      const neck = front ? 'Q200 118 232 66' : 'Q200 80 232 66';
      return {
        body: `M146 76L168 66${neck}L254 76L300 104L340 388L304 398L268 200Q258 250 272 310Q280 364 268 416L132 416Q120 364 128 310Q142 250 132 200L96 398L60 388L100 104Z`,
        trims: ['M60 388L96 398L92 428L62 420Z', 'M340 388L304 398L308 428L338 420Z'],
        holes: ['M70 410Q78 402 86 412Q78 418 70 410Z', 'M330 410Q322 402 314 412Q322 418 330 410Z'],
        details: [
          'M132 200Q138 140 146 78',
          'M268 200Q262 140 254 78',
          'M134 402Q200 410 266 402',
          `M168 66${front ? 'Q200 128 232 66' : 'Q200 90 232 66'}`,
        ],
        folds: [
          'M160 220Q172 310 160 400',
          'M240 220Q230 310 244 400',
          'M98 200Q90 290 80 370',
          'M302 200Q310 290 320 370',
        ],
        mark: front ? { x: 218, y: 150, scale: 0.9 } : null,
        word: front ? null : { x: 200, y: 176, size: 24 },
      };
    }
    case 'manga-longa': {
      const neck = front ? 'Q200 100 230 62' : 'Q200 76 230 62';
      return {
        body: `M140 72L170 62${neck}L260 72L306 104L344 380L306 392L272 204L272 420L128 420L128 204L94 392L56 380L94 104Z`,
        trims: ['M56 380L94 392L97 372L60 360Z', 'M344 380L306 392L303 372L340 360Z'],
        details: [
          'M128 204Q134 140 140 74',
          'M272 204Q266 140 260 74',
          'M130 406L270 406',
          `M170 62${front ? 'Q200 112 230 62' : 'Q200 88 230 62'}`,
        ],
        folds: [
          'M152 214Q166 310 156 404',
          'M248 214Q236 310 250 404',
          'M92 196Q84 280 74 356',
          'M308 196Q316 280 326 356',
        ],
        mark: front ? { x: 222, y: 140, scale: 1 } : null,
        word: front ? null : { x: 200, y: 170, size: 26 },
      };
    }
  }
}

export type SleevelessKind = 'regata-tela' | 'regata-cavada' | 'top-nadador' | 'regata' | 'top';

/** Tank tops and sports tops. */
export function sleevelessDrawing(kind: SleevelessKind, front: boolean): Drawing {
  switch (kind) {
    case 'regata-tela': {
      const neck = front ? 'Q200 120 224 62' : 'Q200 86 224 62';
      return {
        body: `M156 62L176 62${neck}L244 62Q250 140 286 172L288 380L112 380L114 172Q150 140 156 62Z`,
        mesh: front ? [] : ['M150 124Q200 150 250 124L262 300Q200 320 138 300Z'],
        details: front
          ? ['M114 172Q150 140 156 62', 'M286 172Q250 140 244 62', 'M116 366L284 366']
          : ['M116 366L284 366'],
        mark: front ? { x: 216, y: 170, scale: 0.9 } : null,
        word: front ? null : { x: 200, y: 330, size: 22 },
      };
    }
    case 'regata-cavada': {
      const neck = front ? 'Q200 118 222 62' : 'Q200 84 222 62';
      return {
        body: `M160 62L178 62${neck}L240 62Q236 180 290 210L292 380L108 380L110 210Q164 180 160 62Z`,
        details: ['M110 210Q164 180 160 62', 'M290 210Q236 180 240 62', 'M112 366L288 366'],
        perforated: true,
        folds: ['M150 230Q164 300 156 366', 'M250 230Q238 300 250 366'],
        mark: front ? { x: 214, y: 200, scale: 1 } : null,
        word: front ? null : { x: 200, y: 200, size: 24 },
      };
    }
    case 'top-nadador':
      return {
        body: front
          ? 'M156 66L170 66Q200 168 230 66L244 66Q250 156 290 210L288 318L112 318L110 210Q150 156 156 66Z'
          : 'M150 66L174 66Q190 140 200 150Q210 140 226 66L250 66Q244 160 290 210L288 318L112 318L110 210Q156 160 150 66Z',
        trims: ['M112 284L288 284L288 318L112 318Z'],
        accents: [
          'M110 210Q150 156 156 66L163 66Q160 176 128 284L112 284Z',
          'M290 210Q250 156 244 66L237 66Q240 176 272 284L288 284Z',
        ],
        details: front ? ['M128 226Q200 256 272 226'] : ['M200 150L200 284'],
        folds: ['M150 240Q200 262 250 240'],
        mark: front ? { x: 216, y: 214, scale: 0.7 } : null,
        word: null,
      };
    case 'regata': {
      const neck = front ? 'Q200 128 228 62' : 'Q200 86 228 62';
      return {
        body: `M148 62L172 62${neck}L252 62Q258 128 288 156L290 380L110 380L112 156Q142 128 148 62Z`,
        details: ['M112 156Q142 128 148 62', 'M288 156Q258 128 252 62', 'M114 366L286 366'],
        mark: front ? { x: 220, y: 178, scale: 1 } : null,
        word: front ? null : { x: 200, y: 180, size: 24 },
      };
    }
    case 'top': {
      return {
        body: front
          ? 'M146 70L172 70Q200 150 228 70L254 70Q262 160 292 214L290 300L110 300L108 214Q138 160 146 70Z'
          : 'M146 70L172 70L200 170L228 70L254 70Q262 160 292 214L290 300L110 300L108 214Q138 160 146 70Z',
        trims: ['M110 262L290 262L290 300L110 300Z'],
        details: front ? ['M134 200Q200 232 266 200'] : ['M200 170L200 262', 'M172 70L200 170L228 70'],
        mark: front ? { x: 186, y: 270, scale: 0.8 } : null,
        word: null,
      };
    }
  }
}

export type OuterwearKind = 'jaqueta-capuz' | 'jaqueta';

/** Windbreakers. */
export function outerwearDrawing(kind: OuterwearKind, front: boolean): Drawing {
  switch (kind) {
    case 'jaqueta-capuz':
      return {
        body: 'M142 74L170 56Q200 40 230 56L258 74L308 104L346 384L306 394L272 206L272 424L128 424L128 206L94 394L54 384L92 104ZM156 74Q140 12 200 8Q260 12 244 74Q224 52 200 52Q176 52 156 74Z',
        trims: front
          ? [
              'M168 70Q170 34 200 32Q230 34 232 70Q216 58 200 58Q184 58 168 70Z',
              'M54 384L94 394L92 372L58 362Z',
              'M346 384L306 394L308 372L342 362Z',
            ]
          : ['M54 384L94 394L92 372L58 362Z', 'M346 384L306 394L308 372L342 362Z'],
        mesh: front ? [] : ['M132 150L268 150L268 186L132 186Z'],
        reflective: front ? ['M197 62L203 62L203 424L197 424Z'] : ['M132 300L268 300L268 306L132 306Z'],
        details: front
          ? ['M128 206Q134 140 142 74', 'M272 206Q266 140 258 74', 'M150 320L184 300', 'M250 320L216 300']
          : ['M128 206Q134 140 142 74', 'M272 206Q266 140 258 74', 'M200 20L200 60'],
        folds: [
          'M150 200Q166 310 156 410',
          'M250 200Q236 310 248 410',
          'M82 200Q74 290 68 370',
          'M318 200Q326 290 332 370',
        ],
        mark: front ? { x: 226, y: 150, scale: 0.9 } : null,
        word: front ? null : { x: 200, y: 240, size: 24 },
      };
    case 'jaqueta':
      return {
        body: 'M142 74L170 56Q200 40 230 56L258 74L308 104L346 384L306 394L272 206L272 424L128 424L128 206L94 394L54 384L92 104Z',
        trims: [
          'M170 56Q200 26 230 56Q200 70 170 56Z',
          'M54 384L94 394L92 372L58 362Z',
          'M346 384L306 394L308 372L342 362Z',
        ],
        details: front
          ? [
              'M200 62L200 424',
              'M128 206Q134 140 142 74',
              'M272 206Q266 140 258 74',
              'M144 300L178 300',
              'M222 300L256 300',
            ]
          : ['M128 206Q134 140 142 74', 'M272 206Q266 140 258 74', 'M128 250L272 250'],
        mark: front ? { x: 222, y: 140, scale: 0.9 } : null,
        word: front ? null : { x: 200, y: 180, size: 26 },
      };
  }
}

export type BottomsKind = 'shorts-duplo' | 'shorts-split' | 'bermuda' | 'shorts' | 'legging';

/** Shorts, compression shorts and leggings. */
export function bottomsDrawing(kind: BottomsKind, front: boolean): Drawing {
  switch (kind) {
    case 'shorts-duplo':
      return {
        body: 'M118 118L282 118L304 362L214 376L200 226L186 376L96 362Z',
        trims: [
          'M118 118L282 118L285 152L115 152Z',
          'M100 368L184 380L182 404L106 396Z',
          'M300 368L216 380L218 404L294 396Z',
        ],
        details: front
          ? ['M194 152Q190 180 182 192', 'M206 152Q210 180 218 192', 'M98 356L186 370', 'M302 356L214 370']
          : ['M200 152L200 226', 'M146 176L190 176L188 204L148 204Z'],
        reflective: front ? [] : ['M150 188L186 188L186 191L150 191Z'],
        folds: ['M150 170Q140 260 132 340', 'M250 170Q260 260 268 340'],
        mark: front ? { x: 250, y: 320, scale: 0.8 } : null,
        word: null,
      };
    case 'shorts-split':
      return {
        body: 'M122 118L278 118L300 320Q284 300 270 332L214 344L200 222L186 344L130 332Q116 300 100 320Z',
        trims: ['M122 118L278 118L281 150L119 150Z'],
        details: front
          ? ['M190 150L188 128', 'M210 150L212 128', 'M104 314Q118 294 132 326', 'M296 314Q282 294 268 326']
          : ['M200 150L200 222', 'M150 180L190 180L188 214L152 214Z'],
        folds: ['M150 170Q142 250 134 318', 'M250 170Q258 250 266 318'],
        mark: front ? { x: 238, y: 292, scale: 0.7 } : null,
        word: null,
      };
    case 'bermuda':
      return {
        body: 'M134 70L266 70L286 334L214 342L204 186L196 186L186 342L114 334Z',
        trims: [
          'M134 70L266 70L268 106L132 106Z',
          'M114 334L186 342L187 324L116 316Z',
          'M286 334L214 342L213 324L284 316Z',
        ],
        details: front
          ? ['M130 106L116 316', 'M270 106L284 316']
          : ['M200 106L200 186', 'M150 140Q200 158 250 140'],
        folds: ['M160 130Q150 230 150 314', 'M240 130Q250 230 250 314'],
        mark: front ? { x: 232, y: 284, scale: 0.7 } : null,
        word: null,
      };
    case 'shorts':
      return {
        body: 'M118 118L282 118L304 362L214 376L200 226L186 376L96 362Z',
        trims: ['M118 118L282 118L285 152L115 152Z'],
        details: front
          ? ['M190 152L188 128', 'M210 152L212 128', 'M120 350L134 318L140 352', 'M280 350L266 318L260 352']
          : ['M200 152L200 226', 'M140 190L186 190L182 236L144 236Z'],
        mark: front ? { x: 250, y: 320, scale: 0.8 } : null,
        word: null,
      };
    case 'legging':
      return {
        body: 'M138 58L262 58L276 444L222 444L204 170L196 170L178 444L124 444Z',
        trims: ['M138 58L262 58L264 96L136 96Z'],
        details: front
          ? ['M133 250L190 250', 'M210 250L270 250', 'M130 96L124 444']
          : ['M200 96L200 170', 'M146 130Q200 150 254 130', 'M270 96L276 444'],
        mark: front ? { x: 230, y: 390, scale: 0.7 } : null,
        word: null,
      };
  }
}
