import { useEffect, useState } from 'react';

import { authApi, type ProvidersResponse } from './auth-api';

/** Email and sign-in links always work; OAuth buttons appear once the server has named its providers. */
const ALWAYS: ProvidersResponse = { providers: ['email', 'magic_link'], oidcName: null };

/** GET /api/auth/providers; until it answers (or if it fails) only the built-in methods are offered. */
export function useProviders(projectId: string): ProvidersResponse & { loaded: boolean } {
  const [answer, setAnswer] = useState<ProvidersResponse & { loaded: boolean }>({ ...ALWAYS, loaded: false });
  useEffect(() => {
    let active = true;
    authApi.getProviders({ projectId }).then(
      (response) =>
        active &&
        setAnswer({
          providers: Array.isArray(response.providers) ? response.providers : ALWAYS.providers,
          oidcName: response.oidcName,
          loaded: true,
        }),
      () => active && setAnswer({ ...ALWAYS, loaded: true }),
    );
    return () => {
      active = false;
    };
  }, [projectId]);
  return answer;
}
