import { client } from '@/lib/client';

/**
 * SPEC.md section 6: before an AI call the session is checked; a client that lost its user
 * asks the server once more, and only then gives up with the spec's message.
 */
export async function ensureSignedIn(): Promise<void> {
  if (client.auth.isAuthenticated()) return;
  try {
    await client.auth.me();
  } catch {
    throw new Error('Authentication required. Please sign in again.');
  }
}
