import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseTokenFile, staticTokenAuthenticator } from '../../../src/auth/authn/token-file.js';

describe('--token-auth-file', () => {
  it('reads token, user, uid and the quoted groups of each record', () => {
    expect(parseTokenFile('t1,alice,u1,"dev,qa"\nt2,bob,u2\n\nt3,"carol ""c""",u3,ops\n', 'tokens.csv')).toEqual([
      { token: 't1', user: { username: 'alice', uid: 'u1', groups: ['dev', 'qa'] } },
      { token: 't2', user: { username: 'bob', uid: 'u2', groups: [] } },
      { token: 't3', user: { username: 'carol "c"', uid: 'u3', groups: ['ops'] } },
    ]);
  });

  it("refuses a record of fewer than three columns with kube-apiserver's message", () => {
    expect(() => parseTokenFile('t1,alice\n', '/etc/tokens.csv')).toThrow(
      "token file '/etc/tokens.csv' must have at least 3 columns (token, user name, user uid), found 2",
    );
  });

  it('skips records with an empty token; a later duplicate wins', () => {
    expect(parseTokenFile(',alice,u1\nt,bob,u2\nt,carol,u3\n', 'f').map((t) => [t.token, t.user.username])).toEqual([['t', 'carol']]);
  });

  it("refuses stray quotes as Go's CSV reader does", () => {
    expect(() => parseTokenFile('t"1,alice,u1\n', 'f')).toThrow('parse error on line 1, column 2: bare " in non-quoted-field');
    expect(() => parseTokenFile('"t1,alice,u1\n', 'f')).toThrow('parse error on line 1, column 14: extraneous or missing " in quoted-field');
  });

  it("places a quote error where Go's reader does: bytes from the start of the line, and the record's first line", () => {
    const error = (text: string) => {
      try {
        parseTokenFile(text, 'f');
      } catch (e) {
        return (e as Error).message;
      }
      return undefined;
    };
    // The closing quote a letter follows, counted from the line's start (not the field's).
    expect(error('tok1,"ali"ce,1\n')).toBe('parse error on line 1, column 10: extraneous or missing " in quoted-field');
    // A quote left open to the end of the file, on one line.
    expect(error('tok1,alice,1,"g1\n')).toBe('parse error on line 1, column 18: extraneous or missing " in quoted-field');
    // A quoted field over two lines.
    expect(error('a,b,"c\nd"x\n')).toBe('record on line 1; parse error on line 2, column 2: extraneous or missing " in quoted-field');
    // Columns are bytes: ö is two.
    expect(error('tök"1,a,b\n')).toBe('parse error on line 1, column 5: bare " in non-quoted-field');
  });

  it('reads CRLF lines, skips empty ones, and drops the \\r of a last line without a newline', () => {
    expect(parseTokenFile('\r\n\nt1,alice,u1\r\n\nt2,bob,u2\r', 'f').map((t) => t.user.uid)).toEqual(['u1', 'u2']);
  });

  it('never throws anything but an Error, and never accepts a token not in the file', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 200 }), fc.string({ minLength: 1, maxLength: 20 }), async (text, probe) => {
        let tokens;
        try {
          tokens = parseTokenFile(text, 'f');
        } catch (e) {
          expect(e).toBeInstanceOf(Error);
          return;
        }
        const known = new Set(tokens.map((t) => t.token));
        const result = await staticTokenAuthenticator(tokens).authenticateToken(probe);
        expect(result !== undefined).toBe(known.has(probe));
      }),
    );
  });
});
