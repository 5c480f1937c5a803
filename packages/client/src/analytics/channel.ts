// Where a visit came from, and the UTM attribution it carried (PLATFORM_API.md section 9).

export type Channel =
  'Paid Search' | 'Email' | 'Social' | 'Referral' | 'Display' | 'Affiliate' | 'Organic Search' | 'Direct';

export const UTM_KEYS = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_content', 'utm_term'] as const;
export type UtmKey = (typeof UTM_KEYS)[number];
export type Utm = Partial<Record<UtmKey, string>>;

const byMedium = new Map<string, Channel>([
  ['cpc', 'Paid Search'],
  ['ppc', 'Paid Search'],
  ['email', 'Email'],
  ['social', 'Social'],
  ['referral', 'Referral'],
  ['display', 'Display'],
  ['affiliate', 'Affiliate'],
]);

// A label of the referrer's host, so www.google.com and google.co.uk match and notgoogle.com does not.
const SEARCH = /(^|\.)(google|bing|yahoo|duckduckgo|baidu|yandex)\./;
const SOCIAL = /(^|\.)(facebook|twitter|linkedin|instagram|youtube|tiktok|reddit)\./;
const MAIL = /(^|\.)(mail|outlook|gmail)\./;

/**
 * The traffic channel: the landing URL's utm_medium first, then the referrer's host;
 * no referrer, or one that is not a URL, is Direct.
 */
export function detectChannel(utmMedium: string | null | undefined, referrer: string | null | undefined): Channel {
  const medium = utmMedium ? byMedium.get(utmMedium.toLowerCase()) : undefined;
  if (medium) return medium;
  if (!referrer) return 'Direct';
  let host: string;
  try {
    host = new URL(referrer).hostname.toLowerCase();
  } catch {
    return 'Direct';
  }
  if (SEARCH.test(host)) return 'Organic Search';
  if (SOCIAL.test(host)) return 'Social';
  if (MAIL.test(host)) return 'Email';
  return 'Referral';
}

/** The non-empty utm_* parameters of a query string. */
export function readUtm(search: string): Utm {
  const params = new URLSearchParams(search);
  const utm: Utm = {};
  for (const key of UTM_KEYS) {
    const value = params.get(key);
    if (value) utm[key] = value;
  }
  return utm;
}
