/** "Café Açaí" → "Cafe Acai": drops combining marks after Unicode decomposition. */
export function stripAccents(value: string): string {
  return value.normalize('NFD').replace(/\p{M}/gu, '');
}

/**
 * The form products.search_text is stored in and search terms are compared in: lower-case, no accents,
 * single spaces. Both sides go through this, so "CAFE", "café" and "Café" all meet.
 */
export function toSearchText(...parts: string[]): string {
  return stripAccents(parts.join(' ').toLocaleLowerCase('pt-BR')).replace(/\s+/g, ' ').trim();
}

/** Text safe inside XML/SVG markup and attribute values (the generated images). */
export function escapeXml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
}
