import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { CombinedClock } from '../../../src/clock.js';
import { createCredentialProviders } from '../../../src/nodeagent/images/credential-providers.js';
import { PluginDir, v1Response } from './plugins.js';

const plugins = new PluginDir();
afterAll(() => plugins.remove());

const provider = (name: string, matchImages: string[], defaultCacheDuration = '0s') => ({
  name,
  matchImages,
  defaultCacheDuration,
  apiVersion: 'credentialprovider.kubelet.k8s.io/v1',
});
const config = (...providers: ReturnType<typeof provider>[]) => ({ apiVersion: 'kubelet.config.k8s.io/v1', kind: 'CredentialProviderConfig', providers });
const runs = (name: string) => readFileSync(`${plugins.dir}/${name}.log`, 'utf8').trim().split('\n').length;

describe('createCredentialProviders', () => {
  it('refuses a missing plugin directory or binary, and an invalid configuration', () => {
    expect(() => createCredentialProviders({ config: config(provider('x', ['a.io'])), binDir: `${plugins.dir}/nope` })).toThrow(
      `plugin binary directory ${plugins.dir}/nope did not exist`,
    );
    expect(() => createCredentialProviders({ config: config(provider('absent', ['a.io'])), binDir: plugins.dir })).toThrow(
      `plugin binary executable ${plugins.dir}/absent did not exist`,
    );
    expect(() => createCredentialProviders({ config: config(), binDir: plugins.dir })).toThrow(
      'failed to validate credential provider config: providers: Required value',
    );
  });

  it('asks only the providers whose matchImages match, and combines their answers in order', async () => {
    plugins.answering('first', v1Response({ 'registry.io': { username: 'first', password: 'p1' } }));
    plugins.answering('second', v1Response({ 'registry.io': { username: 'second', password: 'p2' } }));
    plugins.answering('other', v1Response({ 'other.io': { username: 'o', password: 'o' } }));
    const providers = createCredentialProviders({
      config: config(provider('first', ['registry.io']), provider('other', ['other.io']), provider('second', ['*.io'])),
      binDir: plugins.dir,
    });
    expect(await providers.provide('registry.io/team/app')).toEqual([
      { provider: 'first', config: { 'registry.io': { username: 'first', password: 'p1' } } },
      { provider: 'second', config: { 'registry.io': { username: 'second', password: 'p2' } } },
    ]);
    expect(await providers.provide('unrelated.example.com/app')).toEqual([]);
  });

  it('caches by image, registry or globally for the response duration or the default', async () => {
    const clock = new CombinedClock({ frozenAt: 1_000_000 });
    plugins.answering('byimage', v1Response({ 'r.io': { username: 'u', password: 'p' } }, { cacheDuration: '1m' }));
    plugins.answering('byregistry', v1Response({ 'r.io': { username: 'u', password: 'p' } }, { cacheKeyType: 'Registry' }));
    plugins.answering('global', v1Response({ '*.io': { username: 'u', password: 'p' } }, { cacheKeyType: 'Global', cacheDuration: '10s' }));
    plugins.answering('nocache', v1Response({ 'r.io': { username: 'u', password: 'p' } }, { cacheDuration: '0s' }));
    const providers = createCredentialProviders({
      config: config(provider('byimage', ['r.io']), provider('byregistry', ['r.io'], '30s'), provider('global', ['*.io']), provider('nocache', ['r.io'], '1h')),
      binDir: plugins.dir,
      clock,
    });
    await providers.provide('r.io/a');
    await providers.provide('r.io/a');
    await providers.provide('r.io/b');
    expect([runs('byimage'), runs('byregistry'), runs('global'), runs('nocache')]).toEqual([2, 1, 1, 3]);
    clock.advance(31_000); // registry and global entries expired, image entries not
    await providers.provide('r.io/a');
    expect([runs('byimage'), runs('byregistry'), runs('global'), runs('nocache')]).toEqual([2, 2, 2, 4]);
    clock.advance(60_000);
    await providers.provide('r.io/a');
    expect(runs('byimage')).toBe(3);
  });

  it('a failing plugin contributes nothing and is reported', async () => {
    plugins.plugin('broken', 'exit 1');
    plugins.answering('fine', v1Response({ 'r.io': { username: 'u', password: 'p' } }));
    const errors: string[] = [];
    const providers = createCredentialProviders({
      config: config(provider('broken', ['r.io']), provider('fine', ['r.io'])),
      binDir: plugins.dir,
      onError: (name, e) => errors.push(`${name}: ${e.message}`),
    });
    expect((await providers.provide('r.io/x')).map((p) => p.provider)).toEqual(['fine']);
    expect(errors).toEqual(['broken: error execing credential provider plugin broken for image r.io/x: exit status 1: ']);
  });

  it('runs a plugin once for concurrent requests of one image', async () => {
    plugins.plugin('slow', `sleep 0.1\ncat <<'JSON'\n${JSON.stringify(v1Response({ 'r.io': { username: 'u', password: 'p' } }))}\nJSON`);
    const providers = createCredentialProviders({ config: config(provider('slow', ['r.io'])), binDir: plugins.dir });
    await Promise.all([providers.provide('r.io/x'), providers.provide('r.io/x'), providers.provide('r.io/x')]);
    expect(runs('slow')).toBe(1);
  });
});
