// A small User-Agent reader for the analytics columns device_type, browser and os. It knows the
// common browsers and systems; anything else is 'Other' (or null without a header).

export interface UserAgentInfo {
  deviceType: 'desktop' | 'mobile' | 'tablet' | 'bot' | null;
  browser: string | null;
  os: string | null;
}

// Order matters: Edge, Opera and Samsung Internet also say "Chrome"; Chrome also says "Safari".
const browsers: [RegExp, string][] = [
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\b(OPR|Opera)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\b(Firefox|FxiOS)\//, 'Firefox'],
  [/\b(Chrome|CriOS|Chromium)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
  [/\b(MSIE |Trident\/)/, 'Internet Explorer'],
];

// iPadOS 13+ reports itself as a Mac; the "Mobile" token is not in the desktop Safari string.
const systems: [RegExp, string][] = [
  [/\b(iPhone|iPad|iPod)\b/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

const BOT = /bot\b|crawler|spider|slurp|headless|lighthouse|curl\/|wget\//i;

function deviceOf(ua: string): UserAgentInfo['deviceType'] {
  if (BOT.test(ua)) return 'bot';
  if (/\biPad\b|\bTablet\b/.test(ua) || (/\bAndroid\b/.test(ua) && !/\bMobile\b/.test(ua))) return 'tablet';
  if (/\bMobi|\biPhone\b|\biPod\b/.test(ua)) return 'mobile';
  return 'desktop';
}

/** Reads the device type, browser and OS from a User-Agent header; all null when it is absent. */
export function parseUserAgent(header: string | undefined): UserAgentInfo {
  const ua = (header ?? '').slice(0, 512);
  if (!ua) return { deviceType: null, browser: null, os: null };
  const browser = browsers.find(([pattern]) => pattern.test(ua))?.[1] ?? 'Other';
  const os = systems.find(([pattern]) => pattern.test(ua))?.[1] ?? 'Other';
  return { deviceType: deviceOf(ua), browser, os };
}
