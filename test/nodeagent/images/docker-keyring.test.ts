import { describe, expect, it } from 'vitest';
import { createDockerKeyring, DockerConfigError, parseDockerConfig } from '../../../src/nodeagent/images/docker-keyring.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');

describe('parseDockerConfig', () => {
  it('reads .dockerconfigjson and legacy .dockercfg, decoding auth', () => {
    expect(parseDockerConfig(JSON.stringify({ auths: { 'r.io': { auth: b64('robot:pa:ss') } } }))).toEqual({
      'r.io': { username: 'robot', password: 'pa:ss', auth: b64('robot:pa:ss') },
    });
    expect(parseDockerConfig(JSON.stringify({ 'r.io': { username: 'u', password: 'p', email: 'x' } }))).toEqual({ 'r.io': { username: 'u', password: 'p' } });
  });

  it.each([
    ['{', /^invalid docker config: /],
    ['[]', 'invalid docker config: not a JSON object'],
    ['{"auths": 3}', 'invalid docker config: auths is not an object'],
    ['{"auths": {"r.io": "x"}}', 'invalid docker config: entry "r.io" is not an object'],
    [`{"auths": {"r.io": {"auth": "${b64('nocolon')}"}}}`, 'invalid docker config: entry "r.io": auth is not base64 of user:password'],
  ])('refuses %s', (text, message) => {
    expect(() => parseDockerConfig(text)).toThrow(DockerConfigError);
    expect(() => parseDockerConfig(text)).toThrow(message);
  });
});

describe('createDockerKeyring', () => {
  it('normalizes locations and tries the most specific first', () => {
    const keyring = createDockerKeyring([
      { source: 'a', config: { 'quay.io': { username: 'host' }, 'https://quay.io/v1/': { username: 'v1' } } },
      { source: 'b', config: { 'quay.io/coreos': { username: 'team' }, 'http://gcr.io': { username: 'gcr' } } },
    ]);
    expect(keyring.lookup('quay.io/coreos/etcd').map((c) => [c.source, c.entry.username])).toEqual([
      ['b', 'team'],
      ['a', 'host'],
      ['a', 'v1'],
    ]);
    expect(keyring.lookup('quay.io/other').map((c) => c.entry.username)).toEqual(['host', 'v1']);
    expect(keyring.lookup('gcr.io/x').map((c) => c.entry.username)).toEqual(['gcr']);
    expect(keyring.lookup('ghcr.io/x')).toEqual([]);
  });

  it('serves docker.io images from index.docker.io credentials', () => {
    const keyring = createDockerKeyring([{ source: 's', config: { 'https://index.docker.io/v1/': { username: 'hub' } } }]);
    expect(keyring.lookup('docker.io/library/nginx').map((c) => c.entry.username)).toEqual(['hub']);
  });

  it('ignores locations that do not parse', () => {
    const keyring = createDockerKeyring([{ source: 's', config: { 'bad host.io': { username: 'x' }, 'r.io': { username: 'ok' } } }]);
    expect(keyring.lookup('r.io/x').map((c) => c.entry.username)).toEqual(['ok']);
  });
});

describe('parseDockerConfig on hostile input', () => {
  it('answers or throws DockerConfigError for any JSON', async () => {
    const fc = (await import('fast-check')).default;
    fc.assert(
      fc.property(fc.oneof(fc.json(), fc.string()), (text) => {
        try {
          const config = parseDockerConfig(text);
          for (const entry of Object.values(config)) expect(typeof entry).toBe('object');
          createDockerKeyring([{ source: 's', config }]).lookup('docker.io/library/nginx');
        } catch (e) {
          expect(e).toBeInstanceOf(DockerConfigError);
        }
      }),
    );
  });
});

describe('default registry fallback', () => {
  it('applies to docker.io, library and dotless-host images only', () => {
    const keyring = createDockerKeyring([{ source: 's', config: { 'index.docker.io': { username: 'hub' } } }]);
    expect(keyring.lookup('docker.io/team/app')).toHaveLength(1);
    expect(keyring.lookup('ubuntu')).toHaveLength(1);
    expect(keyring.lookup('team/app')).toHaveLength(1);
    expect(keyring.lookup('quay.io/team/app')).toHaveLength(0);
    expect(keyring.lookup('localhost:5000/app')).toHaveLength(0);
    expect(keyring.lookup('/app')).toHaveLength(0);
  });
});
