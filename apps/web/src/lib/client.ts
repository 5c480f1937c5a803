import { createClient } from '@fieldassist/client';

import { PROJECT_ID } from '@/lib/sign-in-url';

/**
 * The app's one platform client. Managed mode: signing in happens on the hosted /auth page,
 * which returns here with the tokens; the client takes them from the URL and keeps them in
 * localStorage (in step across tabs). Created when the app chunk loads, never on /auth.
 */
export const client = createClient({
  projectId: PROJECT_ID,
  baseUrl: window.location.origin,
  auth: { mode: 'managed' },
});
