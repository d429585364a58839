import { inflateSync } from 'node:zlib';

/** WinAnsi's own characters between 0x80 and 0x9f (the rest of what a label prints is Latin-1). */
const WIN_ANSI: Record<number, string> = {
  145: '‘',
  146: '’',
  147: '“',
  148: '”',
  149: '•',
  150: '–',
  151: '—',
};

/** The lines of text a PDF made by pdfkit draws (its standard fonts write WinAnsi hex strings in `TJ`). */
export function pdfLines(pdf: Buffer): string[] {
  const latin = pdf.toString('latin1');
  const lines: string[] = [];
  for (const m of latin.matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)) {
    let content: string;
    try {
      content = inflateSync(Buffer.from(m[1]!, 'latin1')).toString('latin1');
    } catch {
      continue;
    }
    for (const tj of content.matchAll(/\[([^\]]*)\]\s*TJ/g)) {
      const hex = [...tj[1]!.matchAll(/<([0-9a-fA-F]*)>/g)].map((h) => h[1]).join('');
      lines.push([...Buffer.from(hex, 'hex')].map((b) => WIN_ANSI[b] ?? String.fromCharCode(b)).join(''));
    }
  }
  return lines;
}
