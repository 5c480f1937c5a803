import { FieldAssistError } from '@fieldassist/client';

/** True when a request got no answer (offline, or the server unreachable), not a refusal. */
export function isNetworkError(error: unknown): boolean {
  if (error instanceof FieldAssistError) return error.status === 0 || error.code === 'NETWORK_ERROR';
  return error instanceof TypeError; // fetch's own "Failed to fetch"
}
