import { CloudOff } from 'lucide-react';

/** Under the conversation while questions asked offline wait for the network. */
export function QueuedNotice({ count }: { count: number }) {
  if (count === 0) return null;
  return (
    <p
      role="status"
      data-testid="queued-questions"
      className="flex items-center gap-2 border-t bg-muted px-3 py-2 text-base"
    >
      <CloudOff className="size-5 shrink-0" aria-hidden="true" />
      {count === 1 ? 'Your question is saved on this phone' : `${count} questions are saved on this phone`} and asked
      when the network returns.
    </p>
  );
}
