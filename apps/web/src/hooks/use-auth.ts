import type { AuthState } from '@fieldassist/client';
import { useEffect, useState } from 'react';

import { client } from '@/lib/client';

/** The session as React state: loading first, then a user or none; follows other tabs too. */
export function useAuth(): AuthState {
  const [state, setState] = useState<AuthState>(() => client.auth.getState());
  useEffect(() => client.auth.onAuthStateChanged(setState), []);
  return state;
}
