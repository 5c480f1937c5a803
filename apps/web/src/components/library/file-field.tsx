import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';

// SPEC.md section 5: the picker accepts these.
const ACCEPT = '.pdf,.doc,.docx,.txt';

type FileFieldProps = {
  id: string;
  label: string;
  multiple?: boolean;
  disabled?: boolean;
  onPick: (files: File[]) => void;
};

/** A labelled file picker for manuals. */
export function FileField({ id, label, multiple, disabled, onPick }: FileFieldProps) {
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        type="file"
        accept={ACCEPT}
        multiple={multiple}
        disabled={disabled}
        onChange={(event) => onPick(Array.from(event.target.files ?? []))}
        className="h-auto cursor-pointer py-2 file:mr-3 file:rounded file:border-0 file:bg-primary/10 file:px-2 file:py-1 file:text-sm file:font-medium file:text-primary sm:h-auto"
      />
      <p className="text-xs text-muted-foreground">PDF, Word (.doc, .docx) or text files, up to 50MB.</p>
    </div>
  );
}
