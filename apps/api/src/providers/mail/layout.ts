import { escapeXml } from '@passada/core/text';
import mjml2html from 'mjml';
import type { MailMessage } from './mail.provider.ts';

/** Where every e-mail's header finds the shop's mark (served by the messages module). */
export const MAIL_LOGO_PATH = '/api/media/marca/logo-email.png';

/** What the layout shows around every message. */
export interface MailBrand {
  storeName: string;
  publicUrl: string;
}

/** The shop's orange (brand-700 on light, brand-500 on dark: both pass WCAG AA on their background). */
const BRAND_LIGHT = '#c2410c';
const BRAND_DARK = '#f97316';
/** Text on the white card (15:1) and the footer's grey (7:1). */
const TEXT_LIGHT = '#1c1f24';
const MUTED_LIGHT = '#52525b';

const URL_PATTERN = /https?:\/\/[^\s<>"]+/g;

/**
 * A message as people read it: the text part unchanged (every module writes its e-mail as lines of
 * text), and an HTML part in the shop's layout, written in MJML and compiled by `mjml` (tables and
 * inline styles as mail programs need, a single column that narrows on phones). The HTML body is built
 * from the text (blank lines make paragraphs, "- " lines a list, addresses links) unless the module
 * gave its own (`html`), which goes inside the same layout. `color-scheme` metas and a
 * `prefers-color-scheme: dark` block so programs that darken messages get colours chosen for it; no
 * colour relies on the background behind it (docs/decisions/0045-messages-people-read.md).
 */
export async function brandedMail(
  message: MailMessage,
  brand: MailBrand,
): Promise<MailMessage & { html: string }> {
  const body = message.html ?? textToHtml(message.text);
  const store = escapeXml(brand.storeName);
  const home = escapeXml(brand.publicUrl);
  // The shop's mark beside its name (a PNG: mail programs draw neither SVG nor data: images), at the
  // address that serves the logo staff sent or the storefront's default; its alt is empty because the
  // name follows it.
  const logo = `<img src="${home}${MAIL_LOGO_PATH}" width="32" height="32" alt="" style="vertical-align:middle;margin-right:8px;border:0;">`;
  const button = message.action
    ? `<mj-button css-class="cta" href="${escapeXml(message.action.url)}" background-color="${BRAND_LIGHT}" color="#ffffff" font-size="16px" font-weight="bold" border-radius="6px" inner-padding="12px 24px" padding="8px 32px 16px" align="left">${escapeXml(message.action.label)}</mj-button>`
    : '';
  const source = `<mjml lang="pt-BR">
<mj-head>
<mj-title>${escapeXml(message.subject)}</mj-title>
<mj-preview>${escapeXml(preheader(message.text))}</mj-preview>
<mj-raw><meta name="color-scheme" content="light dark"><meta name="supported-color-schemes" content="light dark"></mj-raw>
<mj-attributes>
<mj-all font-family="Arial, Helvetica, sans-serif"></mj-all>
<mj-text font-size="16px" line-height="1.5" color="${TEXT_LIGHT}" padding="8px 32px"></mj-text>
</mj-attributes>
<mj-style>
:root { color-scheme: light dark; supported-color-schemes: light dark; }
a { color: ${BRAND_LIGHT}; }
@media (prefers-color-scheme: dark) {
  .page, .page > div { background: #0f1115 !important; }
  .card, .card > table, .card td { background: #1c1f24 !important; }
  .card div, .card p, .card li { color: #e8e8ea !important; }
  .muted div { color: #a9adb5 !important; }
  .brand a, .card a { color: ${BRAND_DARK} !important; }
  .card .cta a, .card .cta td { color: #ffffff !important; background: ${BRAND_LIGHT} !important; }
}
</mj-style>
</mj-head>
<mj-body background-color="#f4f4f5" css-class="page" width="600px">
<mj-section padding="24px 0 0"><mj-column></mj-column></mj-section>
<mj-section background-color="#ffffff" css-class="card" border-radius="8px 8px 0 0" padding="16px 0 8px">
<mj-column>
<mj-text css-class="brand" font-size="24px" font-weight="bold" padding="8px 32px 0"><a href="${home}" style="color:${BRAND_LIGHT};text-decoration:none;">${logo}${store}</a></mj-text>
<mj-text>
${body}
</mj-text>
${button}
</mj-column>
</mj-section>
<mj-section background-color="#ffffff" css-class="card muted" border-radius="0 0 8px 8px" padding="0 0 16px">
<mj-column>
<mj-divider border-width="1px" border-color="#e4e4e7" padding="8px 32px"></mj-divider>
<mj-text font-size="13px" color="${MUTED_LIGHT}">${store} · <a href="${home}">${home}</a></mj-text>
</mj-column>
</mj-section>
<mj-section padding="0 0 24px"><mj-column></mj-column></mj-section>
</mj-body>
</mjml>`;
  const { html } = await mjml2html(source, { validationLevel: 'strict' });
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
