import { type Caller, requireSignedIn } from '../auth/caller.js';
import { ApiError } from '../errors.js';

const CHANNEL_NAME = /^[A-Za-z0-9_.:@-]{1,128}$/;

/**
 * Who may subscribe and publish to a channel: `user:{id}` belongs to that user alone (their
 * devices keep in step through it); any other channel is open to the project's signed-in users.
 * Throws ApiError: UNAUTHORIZED, INVALID_PARAMETER, FORBIDDEN.
 */
export function authorizeChannel(caller: Caller, channel: unknown): string {
  requireSignedIn(caller);
  if (typeof channel !== 'string' || !CHANNEL_NAME.test(channel)) {
    throw new ApiError('INVALID_PARAMETER', 'channel must be 1 to 128 letters, digits or _ . : @ -');
  }
  if (channel.startsWith('user:') && caller.kind === 'user' && channel !== `user:${caller.userId}`) {
    throw new ApiError('FORBIDDEN', "You cannot use another user's channel");
  }
  return channel;
}

/** The channel of one user's own devices. */
export const userChannel = (userId: string) => `user:${userId}`;
/** Every open library view listens here for manuals' processing status. */
export const MANUALS_CHANNEL = 'manuals';
