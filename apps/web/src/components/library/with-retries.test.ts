import { FieldAssistNetworkError, FieldAssistValidationError } from '@fieldassist/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { withRetries } from './with-retries';

const rateLimited = (retryAfterMs?: number) =>
  new FieldAssistNetworkError({
    message: 'Too many attempts. Please wait a moment and try again.',
    code: 'RATE_LIMITED',
    status: 429,
    retryAfterMs,
  });

/** A task that fails with each of `failures` in turn, then answers 'done'. */
function flaky(...failures: Error[]) {
  return vi.fn(async () => {
    const failure = failures.shift();
    if (failure) throw failure;
    return 'done';
  });
}

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

describe('withRetries', () => {
  it("waits as long as the server's Retry-After says, not the fixed back-off", async () => {
    const task = flaky(rateLimited(5000));
    const result = withRetries(task, { retries: 5, baseMs: 3000 });
    await vi.advanceTimersByTimeAsync(4999);
    expect(task).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(result).resolves.toBe('done');
    expect(task).toHaveBeenCalledTimes(2);
  });

  it('backs off from baseMs, doubling, when the server says nothing (SPEC.md section 9)', async () => {
    const task = flaky(rateLimited(), rateLimited());
    const result = withRetries(task, { retries: 3, baseMs: 2000 });
    await vi.advanceTimersByTimeAsync(2000);
    expect(task).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(3999);
    expect(task).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    await expect(result).resolves.toBe('done');
  });

  it('gives up after its retries, and never retries what another try cannot mend', async () => {
    const spent = withRetries(flaky(rateLimited(10), rateLimited(10), rateLimited(10)), { retries: 2, baseMs: 10 });
    const caught = spent.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(100);
    expect(await caught).toMatchObject({ status: 429 });

    const invalid = flaky(
      new FieldAssistValidationError({ message: 'PDF content is empty', code: 'EMPTY_DOCUMENT', status: 400 }),
    );
    await expect(withRetries(invalid, { retries: 5, baseMs: 10 })).rejects.toMatchObject({ code: 'EMPTY_DOCUMENT' });
    expect(invalid).toHaveBeenCalledTimes(1);
  });
});
