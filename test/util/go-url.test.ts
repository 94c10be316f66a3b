import { describe, expect, it } from 'vitest';
import { goParseRequestURI, goParseURL, goUserinfoString } from '../../src/util/go-url.js';

describe("goParseURL (Go's net/url.Parse)", () => {
  it('splits a URL into its parts', () => {
    const r = goParseURL('HTTPS://user:p%40ss@example.com:8443/a/b?x=1#frag');
    expect(r).toEqual({
      ok: true,
      url: {
        scheme: 'https',
        opaque: '',
        user: { username: 'user', password: 'p@ss' },
        host: 'example.com:8443',
        path: '/a/b',
        rawQuery: 'x=1',
        fragment: 'frag',
      },
    });
  });

  it('reads a rootless path after the scheme as opaque, and a trailing ? as no query', () => {
    expect(goParseURL('https:example.com')).toMatchObject({ ok: true, url: { scheme: 'https', opaque: 'example.com', host: '' } });
    expect(goParseURL('https://example.com/?')).toMatchObject({ ok: true, url: { host: 'example.com', rawQuery: '' } });
    expect(goParseURL('//example.com/x')).toMatchObject({ ok: true, url: { scheme: '', host: 'example.com', path: '/x' } });
    expect(goParseURL('1http://x')).toEqual({ ok: false, error: 'parse "1http://x": first path segment in URL cannot contain colon' });
  });

  it.each([
    ['http://[::1', `parse "http://[::1": missing ']' in host`],
    [':foo', 'parse ":foo": missing protocol scheme'],
    ['https://a b.com/', 'parse "https://a b.com/": invalid character " " in host name'],
    ['https://host:port/', 'parse "https://host:port/": invalid port ":port" after host'],
    ['https://[::1]x/', 'parse "https://[::1]x/": invalid port "x" after host'],
    ['https://ex%zzample.com', 'parse "https://ex%zzample.com": invalid URL escape "%zz"'],
    ['https://ex%41mple.com', 'parse "https://ex%41mple.com": invalid URL escape "%41"'],
    ['https://example.com/%', 'parse "https://example.com/%": invalid URL escape "%"'],
    ['https://example.com/\u007f', 'parse "https://example.com/\\x7f": net/url: invalid control character in URL'],
    ['https://us er@example.com', 'parse "https://us er@example.com": net/url: invalid userinfo'],
    ['https://example.com/#%x', 'parse "https://example.com/#%x": invalid URL escape "%x"'],
    ['https://ex\u00e9%zz', 'parse "https://exé%zz": invalid URL escape "%zz"'],
  ])('refuses %j as Go does', (raw, error) => {
    expect(goParseURL(raw)).toEqual({ ok: false, error });
  });

  it('prints user information escaped again, as Userinfo.String()', () => {
    const r = goParseURL('https://a%20b:c!d@example.com');
    expect(r.ok && r.url.user && goUserinfoString(r.url.user)).toBe('a%20b:c%21d');
    const u = goParseURL('https://only@example.com');
    expect(u.ok && u.url.user && goUserinfoString(u.url.user)).toBe('only');
  });
});

describe('goParseRequestURI', () => {
  it('takes an absolute URI or an absolute path, and no fragment', () => {
    expect(goParseRequestURI('https://example.com/a?b=c').ok).toBe(true);
    expect(goParseRequestURI('/a/b#not-a-fragment').ok).toBe(true);
    expect(goParseRequestURI('mailto:user@example.com').ok).toBe(true);
    expect(goParseRequestURI('relative/path')).toEqual({ ok: false, error: 'parse "relative/path": invalid URI for request' });
    expect(goParseRequestURI('')).toEqual({ ok: false, error: 'parse "": empty url' });
    expect(goParseRequestURI('http://[::1')).toEqual({ ok: false, error: 'parse "http://[::1": missing \']\' in host' });
  });
});
