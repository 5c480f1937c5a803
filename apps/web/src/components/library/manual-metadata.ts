// The metadata read from a manual (SPEC.md sections 3 and 5): 'Unknown' marks what was not
// found while extracting, and counts as absent when the manual is saved.

export const UNKNOWN = 'Unknown';

export interface ExtractedMetadata {
  title: string;
  technology: string;
  datePublished: string;
  partNumber: string;
}

export const ALL_UNKNOWN: ExtractedMetadata = { title: UNKNOWN, technology: UNKNOWN, datePublished: UNKNOWN, partNumber: UNKNOWN };

const withoutExtension = (fileName: string) => fileName.replace(/\.[A-Za-z0-9]{1,5}$/, '');

/** The title a manual gets when none was found: the file name, underscores as spaces, no extension. */
export function titleFromFileName(fileName: string): string {
  return withoutExtension(fileName).replace(/_+/g, ' ').replace(/\s+/g, ' ').trim() || fileName;
}

/**
 * The file-name fallback: "PARTNUMBER_name.pdf" gives a part number and a title; any other
 * name gives nothing, so everything stays Unknown.
 */
export function metadataFromFileName(fileName: string): ExtractedMetadata {
  const match = /^([A-Za-z0-9][A-Za-z0-9.-]{2,30})_(.+)$/.exec(withoutExtension(fileName));
  if (!match || !/\d/.test(match[1]!)) return ALL_UNKNOWN;
  return { ...ALL_UNKNOWN, title: titleFromFileName(match[2]!), partNumber: match[1]! };
}

/** A value as saved: trimmed, with '' and 'Unknown' (any case) as absent. */
export function knownValue(value: string | null | undefined): string | null {
  const trimmed = value?.trim() ?? '';
  return trimmed === '' || trimmed.toLowerCase() === UNKNOWN.toLowerCase() ? null : trimmed;
}
