/** The platform's project id for this product; the hosted sign-in page needs it. */
export const PROJECT_ID = 'fieldassist';

/**
 * Builds the link to the hosted sign-in page (SPEC.md section 2), which sends the
 * visitor back to `origin` afterwards. The real sign-in flow replaces this later.
 */
export function buildSignInUrl({ origin }: { origin: string }): string {
  const query = new URLSearchParams({ redirect_url: origin, project_id: PROJECT_ID });
  return `/auth?${query.toString()}`;
}
