import { describe, expect, it } from 'vitest';
import { isGoMailAddress } from '../../src/util/go-mail.js';

describe('isGoMailAddress (net/mail.ParseAddress)', () => {
  it.each([
    ['user@example.com', true],
    ['User Name <user@example.com>', true],
    ['"quoted local"@example.com', true],
    ['user@[192.0.2.1]', true],
    ['user@[IPv6:2001:db8::1]', true],
    ['user@[300.0.0.1]', false],
    ['user@example.com (comment)', true],
    ['user', false],
    ['@example.com', false],
    ['user@', false],
    ['user@.example.com', false],
    ['a..b@example.com', false],
    ['<user@example.com', false],
    ['a@b.com, c@d.com', false],
    ['group: a@b.com;', true],
    ['group: ;', false],
    ['', false],
  ])('%j → %s', (s, want) => expect(isGoMailAddress(s)).toBe(want));
});
