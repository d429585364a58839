import { escapeXml } from '@passada/core/text';
import type { MailMessage } from './mail.provider.ts';

/** What the layout shows around every message. */
export interface MailBrand {
  storeName: string;
  publicUrl: string;
}

/** The shop's orange (brand-700 on light, brand-500 on dark: both pass WCAG AA on their background). */
const BRAND_LIGHT = '#c2410c';
const BRAND_DARK = '#f97316';

const URL_PATTERN = /https?:\/\/[^\s<>"]+/g;

/**
 * A message as people read it: the text part unchanged (every module writes its e-mail as lines of
 * text), and an HTML part in the shop's layout. The HTML is built from the text (blank lines make
 * paragraphs, "- " lines a list, addresses links) unless the module gave its own body (`html`), which
 * goes inside the same layout. Tables and inline styles, as mail programs need; `color-scheme` and a
 * `prefers-color-scheme: dark` block so programs that darken messages get colours chosen for it
 * (docs/decisions/0037-operating-the-shop.md).
 */
export function brandedMail(message: MailMessage, brand: MailBrand): MailMessage & { html: string } {
  const body = message.html ?? textToHtml(message.text);
  const store = escapeXml(brand.storeName);
  const home = escapeXml(brand.publicUrl);
  const html = `<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="supported-color-schemes" content="light dark">
<title>${escapeXml(message.subject)}</title>
<style>
  :root { color-scheme: light dark; supported-color-schemes: light dark; }
  a { color: ${BRAND_LIGHT}; }
  @media (prefers-color-scheme: dark) {
    .page { background: #0f1115 !important; }
    .card { background: #1c1f24 !important; color: #e8e8ea !important; }
    .muted { color: #a9adb5 !important; }
    .brand, a { color: ${BRAND_DARK} !important; }
  }
</style>
</head>
<body style="margin:0;padding:0;">
<div style="display:none;max-height:0;overflow:hidden;">${escapeXml(preheader(message.text))}</div>
<table role="presentation" class="page" width="100%" cellpadding="0" cellspacing="0" style="background:#f4f4f5;padding:24px 0;">
<tr><td align="center">
<table role="presentation" class="card" width="600" cellpadding="0" cellspacing="0" style="max-width:600px;width:100%;background:#ffffff;color:#1c1f24;border-radius:8px;font-family:Arial,Helvetica,sans-serif;font-size:16px;line-height:1.5;">
<tr><td style="padding:24px 32px 0;"><a class="brand" href="${home}" style="color:${BRAND_LIGHT};font-size:24px;font-weight:bold;text-decoration:none;">${store}</a></td></tr>
<tr><td style="padding:8px 32px 24px;">
${body}
</td></tr>
<tr><td class="muted" style="padding:16px 32px 24px;border-top:1px solid #e4e4e7;color:#52525b;font-size:13px;">${store} · <a href="${home}">${home}</a></td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
  return { ...message, html };
}

/** The line mail programs show beside the subject: the first one after the greeting. */
function preheader(text: string): string {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  return (lines[0]?.startsWith('Olá') ? lines[1] : lines[0]) ?? '';
}

function inline(line: string): string {
  let out = '';
  let last = 0;
  for (const match of line.matchAll(URL_PATTERN)) {
    const url = match[0];
    out += escapeXml(line.slice(last, match.index));
    out += `<a href="${escapeXml(url)}">${escapeXml(url)}</a>`;
    last = match.index + url.length;
  }
  return out + escapeXml(line.slice(last));
}

/** Blank lines split paragraphs; a paragraph of "- " lines is a list; other lines keep their breaks. */
export function textToHtml(text: string): string {
  const blocks = text.split(/\n\s*\n/).map((b) => b.split('\n').filter((l) => l.trim() !== ''));
  return blocks
    .filter((lines) => lines.length > 0)
    .map((lines) => {
      const items = lines.filter((l) => l.startsWith('- '));
      if (items.length > 0 && items.length === lines.length) {
        return `<ul style="margin:0 0 16px;padding-left:20px;">${items.map((l) => `<li>${inline(l.slice(2))}</li>`).join('')}</ul>`;
      }
      // A heading line ("Itens:") followed by its list.
      if (items.length > 0 && items.length === lines.length - 1 && !lines[0]!.startsWith('- ')) {
        return `<p style="margin:0 0 4px;">${inline(lines[0]!)}</p><ul style="margin:0 0 16px;padding-left:20px;">${items.map((l) => `<li>${inline(l.slice(2))}</li>`).join('')}</ul>`;
      }
      return `<p style="margin:0 0 16px;">${lines.map(inline).join('<br>')}</p>`;
    })
    .join('\n');
}
