import { useState } from 'react';

import { errorMessage } from './auth-api';

/** A form's request state: pending while it runs, then the error text of a failure. */
export function useSubmit() {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function run(action: () => Promise<void>) {
    setPending(true);
    setError(null);
    try {
      await action();
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setPending(false);
    }
  }

  return { pending, error, run };
}
