import { isNetworkError } from './network-error';
import { readSnapshot, saveSnapshot } from './offline-db';

/**
 * Loads from the server and keeps a copy on the device; with no network, answers with that
 * copy (issue 18: lists readable offline). Other failures are thrown as they are.
 */
export async function readThrough<T>(key: string, load: () => Promise<T>): Promise<T> {
  try {
    const fresh = await load();
    await saveSnapshot(key, fresh).catch((error: unknown) =>
      console.warn('Keeping a copy on the device failed', error),
    );
    return fresh;
  } catch (error) {
    const copy = isNetworkError(error) ? await readSnapshot<T>(key) : undefined;
    if (copy === undefined) throw error;
    return copy;
  }
}
