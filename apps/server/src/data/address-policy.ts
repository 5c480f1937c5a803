import ipaddr from 'ipaddr.js';

// IANA's global unicast block: every other IPv6 range is special-purpose or reserved.
const globalUnicastV6 = ipaddr.parseCIDR('2000::/3');

/**
 * True when `address` (an IP literal) is on the public internet, so the server may connect
 * to it on a user's behalf. Refuses loopback, private (10/8, 172.16/12, 192.168/16), link-local
 * (169.254/16 with the cloud metadata address, fe80::/10), unique-local (fc00::/7), CGNAT
 * (100.64/10), 0.0.0.0/8, multicast, broadcast, documentation and other reserved ranges,
 * IPv4-mapped/NAT64/6to4/Teredo forms of any of them, and anything that does not parse.
 */
export function isPublicAddress(address: string): boolean {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address.replace(/^\[(.*)\]$/, '$1'));
  } catch {
    return false;
  }
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    // ::ffff:a.b.c.d reaches a.b.c.d itself: judge the IPv4 address.
    if (v6.isIPv4MappedAddress()) return isPublicAddress(v6.toIPv4Address().toString());
    return v6.range() === 'unicast' && v6.match(globalUnicastV6);
  }
  return parsed.range() === 'unicast';
}
