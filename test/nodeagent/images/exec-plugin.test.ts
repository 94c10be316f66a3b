import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { ValidCredentialProvider } from '../../../src/nodeagent/images/credential-provider-config.js';
import { CredentialPluginError, execCredentialPlugin } from '../../../src/nodeagent/images/exec-plugin.js';
import { PluginDir, v1Response } from './plugins.js';

const plugins = new PluginDir();
afterAll(() => plugins.remove());

const provider = (name: string, fields: Partial<ValidCredentialProvider> = {}): ValidCredentialProvider => ({
  name,
  matchImages: ['*.registry.io'],
  defaultCacheDurationMs: 60_000,
  apiVersion: 'credentialprovider.kubelet.k8s.io/v1',
  args: [],
  env: [],
  ...fields,
});
const run = (name: string, fields: Partial<ValidCredentialProvider> = {}, extra: { timeoutMs?: number; maxOutputBytes?: number } = {}) =>
  execCredentialPlugin({
    binDir: plugins.dir,
    provider: provider(name, fields),
    image: 'a.registry.io/team/app',
    environment: { PATH: process.env.PATH },
    ...extra,
  });

describe('execCredentialPlugin', () => {
  it('sends the request on stdin, passes args and env, decodes the response', async () => {
    plugins.plugin(
      'good',
      `cat <<JSON
{"kind":"CredentialProviderResponse","apiVersion":"credentialprovider.kubelet.k8s.io/v1","cacheKeyType":"Registry","cacheDuration":"5m","auth":{"a.registry.io":{"username":"$1","password":"$TOKEN"}}}
JSON`,
    );
    const response = await run('good', { args: ['robot'], env: [{ name: 'TOKEN', value: 's3cret' }] });
    expect(response).toEqual({ cacheKeyType: 'Registry', cacheDurationMs: 300_000, auth: { 'a.registry.io': { username: 'robot', password: 's3cret' } } });
    expect(JSON.parse(readFileSync(`${plugins.dir}/good.log`, 'utf8'))).toEqual({
      kind: 'CredentialProviderRequest',
      apiVersion: 'credentialprovider.kubelet.k8s.io/v1',
      image: 'a.registry.io/team/app',
    });
  });

  it('refuses a response in another apiVersion, kind or with a bad cacheKeyType', async () => {
    plugins.answering('beta', { ...v1Response({}), apiVersion: 'credentialprovider.kubelet.k8s.io/v1beta1' });
    await expect(run('beta')).rejects.toThrow(
      new CredentialPluginError(
        'apiVersion from credential plugin response did not match expected apiVersion:credentialprovider.kubelet.k8s.io/v1, actual apiVersion:credentialprovider.kubelet.k8s.io/v1beta1',
      ),
    );
    plugins.answering('kind', { ...v1Response({}), kind: 'ExecCredential' });
    await expect(run('kind')).rejects.toThrow('failed to decode CredentialProviderResponse, unexpected Kind: "ExecCredential"');
    plugins.answering('keytype', { ...v1Response({}), cacheKeyType: 'Pod' });
    await expect(run('keytype')).rejects.toThrow('credential provider plugin did not return a valid cacheKeyType: "Pod"');
  });

  it('does not repeat a response it cannot decode (it may hold credentials)', async () => {
    plugins.answering('unknown', { ...v1Response({ r: { username: 'u', password: 'hunter2' } }), extra: 'hunter2' });
    const error = await run('unknown').catch((e: Error) => e);
    expect(error).toEqual(new CredentialPluginError('error decoding credential provider plugin response from stdout'));
    expect(String(error)).not.toContain('hunter2');
    plugins.answering('typed', { ...v1Response({}), auth: { r: { username: 42 } } });
    await expect(run('typed')).rejects.toThrow('error decoding credential provider plugin response from stdout');
  });

  it('explains output that is not JSON', async () => {
    plugins.plugin('garbage', 'echo "not json at all"');
    await expect(run('garbage')).rejects.toThrow(/^error reading GVK from response: couldn't get version\/kind; json parse error: /);
    plugins.plugin('array', 'echo "[1,2]"');
    await expect(run('array')).rejects.toThrow('json parse error: not a JSON object');
  });

  it('reports the exit status with stderr', async () => {
    plugins.plugin('fails', 'echo "no credentials for you" >&2; exit 3');
    await expect(run('fails')).rejects.toThrow(
      new CredentialPluginError('error execing credential provider plugin fails for image a.registry.io/team/app: exit status 3: no credentials for you\n'),
    );
    await expect(run('missing')).rejects.toThrow(
      /error execing credential provider plugin missing for image a.registry.io\/team\/app: fork\/exec .*missing: no such file or directory/,
    );
  });

  it('kills a plugin that hangs, children included, at the timeout', async () => {
    plugins.plugin('hangs', 'sleep 30');
    const start = Date.now();
    await expect(run('hangs', {}, { timeoutMs: 150 })).rejects.toThrow(
      'error execing credential provider plugin hangs for image a.registry.io/team/app: context deadline exceeded: ',
    );
    expect(Date.now() - start).toBeLessThan(5_000);
  });

  it('stops reading a plugin that prints too much', async () => {
    plugins.plugin('floods', 'yes aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa');
    await expect(run('floods', {}, { maxOutputBytes: 64 * 1024 })).rejects.toThrow('output exceeded 65536 bytes');
  });
});

describe('execCredentialPlugin with null-ridden output', () => {
  it('decodes nulls as absent fields, never crashing', async () => {
    plugins.answering('nulls', { ...v1Response({}), auth: { r: null, s: { username: null, password: 'p' } }, cacheDuration: null });
    expect(await run('nulls')).toEqual({ cacheKeyType: 'Image', auth: { r: { username: '', password: '' }, s: { username: '', password: 'p' } } });
  });
});
