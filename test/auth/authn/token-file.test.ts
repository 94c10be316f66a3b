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
    expect(() => parseTokenFile('"t1,alice,u1\n', 'f')).toThrow('extraneous or missing " in quoted-field');
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
