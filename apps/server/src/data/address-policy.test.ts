import { describe, expect, it } from 'vitest';
import { isPublicAddress } from './address-policy.js';

describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1',
    '127.255.255.254',
    '::1',
    '[::1]',
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '169.254.0.1',
    'fe80::1',
    'fe80::1%eth0',
    'fc00::1',
    'fd12:3456:789a::1',
    '100.64.0.1',
    '100.127.255.255',
    '0.0.0.0',
    '0.1.2.3',
    '::',
    '224.0.0.1',
    '239.255.255.250',
    'ff02::1',
    '255.255.255.255',
    '192.0.2.1',
    '198.51.100.7',
    '203.0.113.9',
    '198.18.0.1',
    '240.0.0.1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '64:ff9b::7f00:1',
    '2002:7f00:1::1',
    '2001::1',
    '2001:db8::1',
    '::7f00:1',
    'fec0::1',
    '100::1',
    // Forms the WHATWG URL parser normalizes to 127.0.0.1, in case one reaches the check raw.
    '2130706433',
    '0x7f.1',
    '0177.0.0.1',
    '127.1',
    'localhost',
    'example.com',
    '',
    '999.1.1.1',
    '1.2.3.4.5',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '2a00:1450:4007:80f::200e',
    '::ffff:8.8.8.8',
  ])('allows %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it('sees through URL host normalization: integer, hex, octal and short IPv4 forms', () => {
    for (const raw of [
      'http://2130706433/',
      'http://0x7f.1/',
      'http://0177.0.0.1/',
      'http://127.1/',
      'http://0x7f000001/',
      'http://[::ffff:127.0.0.1]/',
      'http://[0:0:0:0:0:ffff:7f00:1]/',
    ]) {
      const host = new URL(raw).hostname;
      expect(isPublicAddress(host), `${raw} -> ${host}`).toBe(false);
    }
  });
});
