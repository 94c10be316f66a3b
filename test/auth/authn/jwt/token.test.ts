import { describe, expect, it } from 'vitest';
import { goParseJson } from '../../../../src/auth/authn/jwt/go-json.js';
import { goTimeString, idTokenClaims, rawUrlDecode, untrustedIssuer } from '../../../../src/auth/authn/jwt/token.js';

const b64 = (s: string) => Buffer.from(s).toString('base64url');

describe('token reading', () => {
  it('decodes unpadded URL base64 as Go does', () => {
    expect(rawUrlDecode(b64('hi?>')).toString()).toBe('hi?>');
    expect(rawUrlDecode('aGk=')).toEqual({ error: 'illegal base64 data at input byte 3' });
    expect(rawUrlDecode('a+b/')).toEqual({ error: 'illegal base64 data at input byte 1' });
    expect(rawUrlDecode('abcde')).toEqual({ error: 'illegal base64 data at input byte 4' });
  });

  it('reads the unverified issuer of compact JWTs only', () => {
    expect(untrustedIssuer(`x.${b64('{"iss":"https://a"}')}.y`)).toBe('https://a');
    expect(untrustedIssuer(`x.${b64('{"iss":"accounts.google.com"}')}.y`)).toBe('https://accounts.google.com');
    expect(untrustedIssuer(`x.${b64('{"sub":"a"}')}.y`)).toBe('');
    expect(untrustedIssuer(`x.${b64('{"iss":5}')}.y`)).toBeUndefined();
    expect(untrustedIssuer(`x.${b64('[1]')}.y`)).toBeUndefined();
    expect(untrustedIssuer(`x.${b64('{"iss":"a"}')}`)).toBeUndefined();
    expect(untrustedIssuer(` {"iss":"a"}.b.c`)).toBeUndefined();
    expect(untrustedIssuer(`x.${b64('{"iss":"a"')}.y`)).toBeUndefined();
  });

  it('reads registered claims with Go decoding rules', () => {
    expect(idTokenClaims({ iss: 'a', aud: 'x', exp: 1.9, nbf: '2', iat: 3 })).toMatchObject({ issuer: 'a', audience: ['x'], expiry: 1, notBefore: 2 });
    expect(idTokenClaims({ aud: null, nbf: null })).toMatchObject({ audience: [''], notBefore: undefined, expiry: undefined });
    expect(idTokenClaims({ exp: null })).toBe('strconv.ParseFloat: parsing "": invalid syntax');
    expect(idTokenClaims({ exp: true })).toBe('json: cannot unmarshal bool into Go value of type json.Number');
    expect(idTokenClaims({ aud: ['a', 1] })).toBe('json: cannot unmarshal number into Go value of type string');
    // A plain field's type error is remembered; a custom decoder's failure wins when it comes first or later.
    expect(idTokenClaims({ sub: 1, nonce: 2 })).toBe('json: cannot unmarshal number into Go struct field idToken.sub of type string');
    expect(idTokenClaims({ sub: 1, aud: {} })).toBe('json: cannot unmarshal object into Go value of type []string');
    expect(idTokenClaims({ _claim_names: { groups: 5 } })).toBe('json: cannot unmarshal number into Go struct field idToken._claim_names of type string');
  });

  it('prints times as Go prints a time.Time', () => {
    expect(goTimeString(Date.UTC(2026, 0, 2, 3, 4, 5))).toBe('2026-01-02 03:04:05 +0000 UTC');
    expect(goTimeString(Date.UTC(2026, 0, 2, 3, 4, 5, 120))).toBe('2026-01-02 03:04:05.12 +0000 UTC');
  });

  it('gives Go JSON syntax errors', () => {
    expect(() => goParseJson('')).toThrow('unexpected end of JSON input');
    expect(() => goParseJson('garbage')).toThrow("invalid character 'g' looking for beginning of value");
    expect(() => goParseJson('{"a":1')).toThrow('unexpected end of JSON input');
    expect(() => goParseJson('{} x')).toThrow("invalid character 'x' after top-level value");
    expect(goParseJson('{"a":[1]}')).toEqual({ a: [1] });
  });
});
