const htmlEscapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Safe for both element text and quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => htmlEscapes[c]!);
}

// Stops at whitespace and at characters that usually wrap a URL in prose: <...>, "...", (...).
const urlPattern = /https?:\/\/[^\s<>"'()]+/g;

function trimPunctuation(url: string): string {
  // A sentence ending in a link ("... at https://x.test/a.") must not take the full stop.
  return url.replace(/[.,;:!?]+$/, '');
}

/** The http(s) links in a plain-text body, in order. */
export function findLinks(text: string): string[] {
  return [...text.matchAll(urlPattern)].map((m) => trimPunctuation(m[0]));
}

const entities: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

/** The http(s) hrefs of an HTML body, decoded from the entities escapeHtml writes. */
export function findHrefs(html: string): string[] {
  return [...html.matchAll(/href="(https?:[^"]+)"/g)].map((m) =>
    m[1]!.replace(/&(?:amp|lt|gt|quot|#39);/g, (e) => entities[e]!),
  );
}

/**
 * Escapes plain text for HTML and turns its links into anchors. It splits the raw text
 * first and escapes each piece, so no part of the input is ever inserted unescaped.
 */
export function linkify(text: string): string {
  let out = '';
  let last = 0;
  for (const match of text.matchAll(urlPattern)) {
    const url = trimPunctuation(match[0]);
    out += escapeHtml(text.slice(last, match.index));
    out += `<a href="${escapeHtml(url)}">${escapeHtml(url)}</a>`;
    last = match.index + url.length;
  }
  return out + escapeHtml(text.slice(last));
}
