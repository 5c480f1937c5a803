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

/** The upload dialogs' 'Release Version' field: its label, the select, and what to do when there is none. */
export function ReleaseVersionField({
  id,
  versions,
  value,
  onChange,
}: {
  id: string;
  versions: ReleaseVersion[];
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <div className="grid gap-2">
      <span id={id} className="text-sm leading-none font-medium">
        Release Version
      </span>
      <VersionSelect
        versions={versions}
        value={value}
        onChange={onChange}
        labelId={id}
        placeholder="Select a version"
      />
      {versions.length === 0 && (
        <p className="text-xs text-muted-foreground">No versions yet: create one with New Version first.</p>
      )}
    </div>
  );
}
