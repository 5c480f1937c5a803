import type { ReleaseVersion } from '@/lib/tables';

/** A version as the library shows it: 'name (year)'. */
export function versionLabel(version: Pick<ReleaseVersion, 'versionName' | 'releaseYear'>): string {
  return `${version.versionName} (${version.releaseYear})`;
}
