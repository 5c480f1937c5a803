// The metadata of a manual (SPEC.md sections 3 and 5) and what its file name tells: 'Unknown'
// marks what was not found while extracting, and counts as absent when the manual is saved.

import { type ManualMetadata, UNKNOWN } from '@fieldassist/client/manuals';

export { type ManualMetadata, UNKNOWN };

export const ALL_UNKNOWN: ManualMetadata = {
  title: UNKNOWN,
  technology: UNKNOWN,
  datePublished: UNKNOWN,
  partNumber: UNKNOWN,
};

const baseName = (fileName: string) =>
  fileName
    .split(/[\\/]/)
    .pop()!
    .replace(/\.[A-Za-z0-9]{1,5}$/, '');
const spaced = (value: string) => value.replace(/_+/g, ' ').replace(/\s+/g, ' ').trim();

/** The title a manual gets when none was found: the file name, underscores as spaces, no extension. */
export function titleFromFileName(fileName: string): string {
  return spaced(baseName(fileName)) || fileName;
}

/**
 * SPEC.md section 5's file-name rule: "PARTNUMBER_name.pdf" gives a part number and a title
 * (underscores read as spaces); any other name gives nothing, so both stay Unknown.
 */
export function metadataFromFileName(fileName: string): Pick<ManualMetadata, 'title' | 'partNumber'> {
  const match = /^([A-Za-z0-9][A-Za-z0-9.-]{2,30})_(.+)$/.exec(baseName(fileName));
  if (!match || !/\d/.test(match[1]!)) return { title: UNKNOWN, partNumber: UNKNOWN };
  return { title: spaced(match[2]!), partNumber: match[1]! };
}

/** A value as saved: trimmed, with '' and 'Unknown' (any case) as absent. */
export function knownValue(value: string | null | undefined): string | null {
  const trimmed = value?.trim() ?? '';
  return trimmed === '' || trimmed.toLowerCase() === UNKNOWN.toLowerCase() ? null : trimmed;
}
