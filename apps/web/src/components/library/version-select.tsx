import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import type { ReleaseVersion } from '@/lib/tables';

import { versionLabel } from './version-label';

type VersionSelectProps = {
  versions: ReleaseVersion[];
  value: string;
  onChange: (value: string) => void;
  labelId: string;
  /** Offer 'All Versions' (value 'all') first: the library's filter. */
  withAll?: boolean;
  placeholder?: string;
  className?: string;
};

/** The release versions, newest year first, each as 'name (year)'. */
export function VersionSelect({
  versions,
  value,
  onChange,
  labelId,
  withAll,
  placeholder,
  className,
}: VersionSelectProps) {
  return (
    <Select value={value} onValueChange={onChange}>
      <SelectTrigger aria-labelledby={labelId} className={className}>
        <SelectValue placeholder={placeholder} />
      </SelectTrigger>
      <SelectContent>
        {withAll && <SelectItem value="all">All Versions</SelectItem>}
        {versions.map((version) => (
          <SelectItem key={version.id} value={version.id}>
            {versionLabel(version)}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
