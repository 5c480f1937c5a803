import { MessageSquareText } from 'lucide-react';

/** What an empty conversation shows (SPEC.md section 2). */
export function EmptyChat() {
  return (
    <div className="flex h-full flex-col items-center justify-center px-4 py-8 text-center">
      <span
        aria-hidden="true"
        className="flex size-12 items-center justify-center rounded-full bg-primary/10 text-primary"
      >
        <MessageSquareText className="size-6" />
      </span>
      <h2 className="mt-4 text-lg font-semibold">Ask me anything!</h2>
      <p className="mt-1 max-w-sm text-sm text-balance text-muted-foreground">
        I can help you troubleshoot equipment, answer technical questions, and provide step-by-step guidance.
      </p>
    </div>
  );
}
