/** The platform's project id for this product; the hosted sign-in page needs it. */
export const PROJECT_ID = 'fieldassist';

/**
 * The hosted sign-in page (SPEC.md section 2), returning to the app's root afterwards:
 * `/auth?redirect_url=<origin>/&project_id=fieldassist`, as `client.auth.login()` builds it.
 */
export function buildSignInUrl({ origin }: { origin: string }): string {
  const query = new URLSearchParams({ redirect_url: `${origin}/`, project_id: PROJECT_ID });
  return `/auth?${query.toString()}`;
}
