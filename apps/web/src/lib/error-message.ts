import { isFieldAssistError } from '@fieldassist/client';

/**
 * The text to show after a failed call: SPEC.md section 8 shows the server's message when
 * there is one, else the fallback. Auth errors carry a user-facing text of their own.
 */
export function errorMessage(error: unknown, fallback: string): string {
  if (isFieldAssistError(error)) {
    const userMessage = (error as { userMessage?: unknown }).userMessage;
    if (typeof userMessage === 'string' && error.status === 401) return userMessage;
    return error.message || fallback;
  }
  return error instanceof Error && error.message ? error.message : fallback;
}
