import { describe, expect, it } from 'vitest';
import { isGoIP, isGoMAC, isSloppyCIDR, isSloppyIP } from '../../src/util/go-net.js';

describe('isGoIP (net.ParseIP)', () => {
  it.each([
    ['1.2.3.4', true],
    ['255.255.255.255', true],
    ['256.1.1.1', false],
    ['01.2.3.4', false], // leading zero
    ['1.2.3', false],
    ['1.2.3.4.', false],
    ['::', true],
    ['::1', true],
    ['2001:db8::1', true],
    ['::ffff:1.2.3.4', true],
    ['2001:db8::12345', false],
    ['1::2::3', false],
    ['fe80::1%eth0', false],
    ['1:2:3:4:5:6:7:8', true],
    ['1:2:3:4:5:6:7:8:9', false],
    ['1:2:3:4:5:6:7::8', false],
    ['', false],
  ])('%j → %s', (s, want) => expect(isGoIP(s)).toBe(want));
});

describe('isSloppyIP and isSloppyCIDR (k8s.io/utils/net)', () => {
  it('accepts leading zeros in IPv4 octets', () => {
    expect(isSloppyIP('010.001.2.3')).toBe(true);
    expect(isSloppyIP('1.2.3.256')).toBe(false);
    expect(isSloppyIP('::ffff:01.2.3.4')).toBe(true);
  });

  it.each([
    ['10.0.0.0/8', true],
    ['10.0.0.0/33', false],
    ['010.0.0.0/08', true],
    ['2001:db8::/32', true],
    ['2001:db8::/129', false],
    ['10.0.0.0', false],
    ['10.0.0.0/', false],
  ])('CIDR %j → %s', (s, want) => expect(isSloppyCIDR(s)).toBe(want));
});

describe('isGoMAC (net.ParseMAC)', () => {
  it.each([
    ['00:00:5e:00:53:01', true],
    ['00-00-5E-00-53-01', true],
    ['0000.5e00.5301', true],
    ['02:00:5e:10:00:00:00:01', true],
    ['00:00:5e:00:53', false],
    ['00:00:5e:00:53:0g', false],
    ['00:00:5e-00:53:01', false],
    ['0000.5e00.530', false],
  ])('%j → %s', (s, want) => expect(isGoMAC(s)).toBe(want));
});
