import { Eye, EyeOff, LoaderCircle } from 'lucide-react';
import { useId, useState, type ComponentProps, type ReactNode } from 'react';

import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { cn } from '@/lib/utils';

type FieldProps = Omit<ComponentProps<'input'>, 'id'> & {
  label: string;
  hint?: string;
  /** Shown at the end of the label row, e.g. a 'Forgot password?' link. */
  labelAction?: ReactNode;
};

/** A field's label row (with its action), the control, and the hint the control is described by. */
function Field({
  id,
  label,
  hint,
  labelAction,
  children,
}: Pick<FieldProps, 'label' | 'hint' | 'labelAction'> & { id: string; children: ReactNode }) {
  return (
    <div className="grid gap-2">
      <div className="flex items-center justify-between gap-2">
        <Label htmlFor={id}>{label}</Label>
        {labelAction}
      </div>
      {children}
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      )}
    </div>
  );
}

/** A labelled input; the hint is read out with it. */
export function TextField({ label, hint, labelAction, ...input }: FieldProps) {
  const id = useId();
  return (
    <Field id={id} label={label} hint={hint} labelAction={labelAction}>
      <Input id={id} aria-describedby={hint ? `${id}-hint` : undefined} {...input} />
    </Field>
  );
}

/** A step's form: submitting runs the step's request, with no page load. */
export function AuthForm({ onSubmit, children }: { onSubmit: () => Promise<unknown>; children: ReactNode }) {
  return (
    <form
      className="grid gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        void onSubmit();
      }}
    >
      {children}
    </form>
  );
}

/** The email field of the sign-in steps; the page keeps its value from one step to the next. */
export function EmailField({
  value,
  onChange,
  autoFocus,
}: {
  value: string;
  onChange: (email: string) => void;
  autoFocus?: boolean;
}) {
  return (
    <TextField
      label="Email"
      type="email"
      name="email"
      autoComplete="email"
      required
      autoFocus={autoFocus}
      value={value}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}

/** A password input with a show/hide toggle (typing on a phone is easier when you can see it). */
export function PasswordField({ label, hint, labelAction, ...input }: FieldProps) {
  const id = useId();
  const [visible, setVisible] = useState(false);
  const Icon = visible ? EyeOff : Eye;
  return (
    <Field id={id} label={label} hint={hint} labelAction={labelAction}>
      <div className="relative">
        <Input
          id={id}
          type={visible ? 'text' : 'password'}
          className="pr-11"
          aria-describedby={hint ? `${id}-hint` : undefined}
          {...input}
        />
        <button
          type="button"
          onClick={() => setVisible((v) => !v)}
          aria-label="Show password"
          aria-pressed={visible}
          className="absolute inset-y-0 right-0 flex w-11 items-center justify-center rounded-r-md text-muted-foreground outline-none hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50"
        >
          <Icon className="size-4" aria-hidden="true" />
        </button>
      </div>
    </Field>
  );
}

/** The form's main button; while the request runs it says so and cannot be pressed twice. */
export function SubmitButton({
  pending,
  pendingLabel,
  children,
}: {
  pending: boolean;
  pendingLabel: string;
  children: ReactNode;
}) {
  return (
    <Button type="submit" size="lg" className="w-full" disabled={pending}>
      {pending && <LoaderCircle className="animate-spin motion-reduce:animate-none" aria-hidden="true" />}
      {pending ? pendingLabel : children}
    </Button>
  );
}

/** A text button that switches the page to another step ('Forgot password?', 'Create an account'). */
export function LinkButton({ className, ...props }: ComponentProps<'button'>) {
  return (
    <button
      type="button"
      className={cn(
        'rounded-sm font-medium text-primary underline-offset-4 outline-none hover:underline focus-visible:ring-[3px] focus-visible:ring-ring focus-visible:ring-offset-2',
        className,
      )}
      {...props}
    />
  );
}
