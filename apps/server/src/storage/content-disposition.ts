/** A file name fit for a header and a save dialog: no control characters, quotes or slashes. */
export function cleanFileName(name: string | undefined): string | undefined {
  const cleaned = name
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
    ?.replace(/[\u0000-\u001f\u007f"\\/]/g, '')
    .trim()
    .slice(0, 255);
  return cleaned || undefined;
}

// Shown in the browser only when the type cannot run script there: images (but not SVG), PDF,
// plain text, audio and video. HTML, SVG, XML, JavaScript and anything unknown are downloaded.
export function isInlineSafe(contentType: string): boolean {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (type === 'image/svg+xml') return false;
  return /^(image|audio|video)\//.test(type) || type === 'application/pdf' || type === 'text/plain';
}

/** `inline` or `attachment` with the name in both forms (RFC 6266): ASCII fallback and UTF-8. */
export function contentDisposition(kind: 'inline' | 'attachment', fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
