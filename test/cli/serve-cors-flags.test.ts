import { describe, expect, it } from 'vitest';
import { parseServeArgs, serve } from '../../src/cli/serve.js';
import { CORS_ALLOWED_ORIGINS_HELP } from '../../src/http/cors.js';

const quiet = { stdout: { write: () => undefined }, stderr: { write: () => undefined }, every: () => () => undefined };

describe('memkube serve --cors-allowed-origins', () => {
  it("reads pflag's string slice: a CSV line, repeats appending", () => {
    expect(parseServeArgs([]).corsAllowedOrigins).toBeUndefined();
    expect(parseServeArgs(['--cors-allowed-origins', '^http://localhost(:|$),//example\\.com(:|$)']).corsAllowedOrigins).toEqual([
      '^http://localhost(:|$)',
      '//example\\.com(:|$)',
    ]);
    expect(parseServeArgs(['--cors-allowed-origins=^http://a$', '--cors-allowed-origins', '^http://b$']).corsAllowedOrigins).toEqual([
      '^http://a$',
      '^http://b$',
    ]);
    // A comma inside a pattern needs CSV quotes, as with kube-apiserver.
    expect(parseServeArgs(['--cors-allowed-origins', '"^http://[a-z]{1,8}\\.test$"']).corsAllowedOrigins).toEqual(['^http://[a-z]{1,8}\\.test$']);
    expect(parseServeArgs(['--cors-allowed-origins=']).corsAllowedOrigins).toEqual([]);
  });

  it("refuses invalid patterns before anything starts, with kube-apiserver's words", () => {
    const invalid = (e: string) => `--cors-allowed-origins has an invalid regular expression: ${e}, help: ${CORS_ALLOWED_ORIGINS_HELP}`;
    expect(() => parseServeArgs(['--cors-allowed-origins', '^http://(a$'])).toThrow(invalid('error parsing regexp: missing closing ): `^http://(a$`'));
    expect(() => parseServeArgs(['--cors-allowed-origins', 'localhost'])).toThrow(
      invalid('regular expression does not pin to start/end of host in the origin header'),
    );
    expect(() => parseServeArgs(['--cors-allowed-origins', '^http://a$,'])).toThrow(
      `empty value in --cors-allowed-origins, help: ${CORS_ALLOWED_ORIGINS_HELP}`,
    );
    expect(() => parseServeArgs(['--cors-allowed-origins', '"^http://a$'])).toThrow(
      'invalid argument "\\"^http://a$" for "--cors-allowed-origins" flag: parse error on line 1, column 1: extraneous or missing " in quoted-field',
    );
    expect(() => parseServeArgs(['--cors-allowed-origins'])).toThrow('--cors-allowed-origins needs a value');
  });

  it('serves a preflight of an allowed origin 204 and the API with the CORS headers', async () => {
    let started!: (line: string) => void;
    const running = new Promise<string>((resolve) => (started = resolve));
    const done = serve(parseServeArgs(['--port', '0', '--cors-allowed-origins', '^http://localhost(:|$)']), (line) => started(line), quiet);
    try {
      const url = (await Promise.race([running, done.then(() => '')])).replace('memkube serving on ', '');
      const preflight = await fetch(`${url}/api/v1/namespaces`, { method: 'OPTIONS', headers: { Origin: 'http://localhost:3000' } });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
      const list = await fetch(`${url}/api/v1/namespaces`, { headers: { Origin: 'http://localhost:3000' } });
      expect(list.status).toBe(200);
      expect(list.headers.get('access-control-allow-credentials')).toBe('true');
      const other = await fetch(`${url}/api/v1/namespaces`, { headers: { Origin: 'http://localhost.evil.example' } });
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      process.emit('SIGTERM');
      await done;
    }
  });
});
