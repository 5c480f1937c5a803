/**
 * Tokens only ever travel to origins on the allow-list (APP_ORIGINS, by default the
 * server's own origin): the hosted page's redirect_url and opener_origin must match one.
 */
export function isAllowedOrigin(url: string | undefined, allowedOrigins: string[]): boolean {
  if (!url) return false;
  try {
    const parsed = new URL(url);
    return (parsed.protocol === 'https:' || parsed.protocol === 'http:') && allowedOrigins.includes(parsed.origin);
  } catch {
    return false;
  }
}
