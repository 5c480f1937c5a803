/**
 * What the viewer opens: a manual's file at a page, and the passage to mark on it. A chat
 * source fits as it is; `quote` is the passage's text as the answer cites it.
 */
export type ManualTarget = {
  title: string;
  fileUrl: string;
  page: number | null;
  quote?: string;
};

/** PDFs are drawn page by page; Word and text files are shown as their extracted text. */
export function isPdf(fileUrl: string): boolean {
  return /\.pdf$/i.test(pathOf(fileUrl));
}

/** The same file, sent as an attachment (the file route's `download=1`). */
export function downloadUrlOf(fileUrl: string): string {
  const url = new URL(fileUrl, window.location.href);
  url.hash = '';
  url.searchParams.set('download', '1');
  return url.toString();
}

function pathOf(fileUrl: string): string {
  try {
    return new URL(fileUrl, window.location.href).pathname;
  } catch {
    return fileUrl;
  }
}
