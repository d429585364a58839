/**
 * Reads a Code 128 symbol back from its bars, the way a scanner does, independently of the encoder
 * that drew it: the element widths of each symbol (ISO/IEC 15417, table 1), the start code, the
 * check symbol (modulo 103) and the stop; code sets B and C and the switches between them.
 */
const PATTERNS = [
  '212222',
  '222122',
  '222221',
  '121223',
  '121322',
  '131222',
  '122213',
  '122312',
  '132212',
  '221213',
  '221312',
  '231212',
  '112232',
  '122132',
  '122231',
  '113222',
  '123122',
  '123221',
  '223211',
  '221132',
  '221231',
  '213212',
  '223112',
  '312131',
  '311222',
  '321122',
  '321221',
  '312212',
  '322112',
  '322211',
  '212123',
  '212321',
  '232121',
  '111323',
  '131123',
  '131321',
  '112313',
  '132113',
  '132311',
  '211313',
  '231113',
  '231311',
  '112133',
  '112331',
  '132131',
  '113123',
  '113321',
  '133121',
  '313121',
  '211331',
  '231131',
  '213113',
  '213311',
  '213131',
  '311123',
  '311321',
  '331121',
  '312113',
  '312311',
  '332111',
  '314111',
  '221411',
  '431111',
  '111224',
  '111422',
  '121124',
  '121421',
  '141122',
  '141221',
  '112214',
  '112412',
  '122114',
  '122411',
  '142112',
  '142211',
  '241211',
  '221114',
  '413111',
  '241112',
  '134111',
  '111242',
  '121142',
  '121241',
  '114212',
  '124112',
  '124211',
  '411212',
  '421112',
  '421211',
  '212141',
  '214121',
  '412121',
  '111143',
  '111341',
  '131141',
  '114113',
  '114311',
  '411113',
  '411311',
  '113141',
  '114131',
  '311141',
  '411131',
  '211412',
  '211214',
  '211232',
];
const STOP = '2331112';

/** The element widths (bar, space, bar, …, in modules) of the bars an SVG of bwip-js draws. */
export function svgElementWidths(svg: string, moduleWidth: number): number[] {
  const bars: Array<{ left: number; right: number }> = [];
  for (const path of svg.matchAll(/<path[^>]*stroke-width="([\d.]+)"[^>]*d="([^"]+)"/g)) {
    const width = Number(path[1]);
    for (const move of path[2]!.matchAll(/M([\d.]+) /g)) {
      const centre = Number(move[1]);
      bars.push({ left: centre - width / 2, right: centre + width / 2 });
    }
  }
  bars.sort((a, b) => a.left - b.left);
  const widths: number[] = [];
  bars.forEach((bar, i) => {
    if (i > 0) widths.push(Math.round((bar.left - bars[i - 1]!.right) / moduleWidth));
    widths.push(Math.round((bar.right - bar.left) / moduleWidth));
  });
  return widths;
}

/** The text a Code 128 symbol carries, from its element widths; throws on anything a scanner refuses. */
export function decodeCode128(widths: number[]): string {
  const symbols: number[] = [];
  for (let i = 0; i + 6 <= widths.length - 7; i += 6) {
    const value = PATTERNS.indexOf(widths.slice(i, i + 6).join(''));
    if (value < 0) throw new Error(`unknown symbol at element ${i}`);
    symbols.push(value);
  }
  if (widths.slice(-7).join('') !== STOP) throw new Error('no stop pattern');
  const [start, ...rest] = symbols;
  const check = rest.pop();
  const sum = rest.reduce((acc, v, i) => acc + v * (i + 1), start!);
  if (sum % 103 !== check) throw new Error('check symbol does not match');
  let set = start === 105 ? 'C' : start === 104 ? 'B' : 'A';
  let text = '';
  for (const v of rest) {
    if (v === 99) set = 'C';
    else if (v === 100) set = 'B';
    else if (v === 101) set = 'A';
    else if (set === 'C') text += String(v).padStart(2, '0');
    else if (set === 'B') text += String.fromCharCode(v + 32);
    else text += String.fromCharCode(v < 64 ? v + 32 : v - 64);
  }
  return text;
}
