import { describe, expect, it } from 'vitest';
import { parseDuration, parseFeatureGates, parseServeArgs } from '../../src/cli/serve.js';

describe('memkube serve arguments', () => {
  it('reads Go durations', () => {
    expect(parseDuration('--x', '300ms')).toBe(300);
    expect(parseDuration('--x', '1m30s')).toBe(90_000);
    expect(parseDuration('--x', '1.5h')).toBe(5_400_000);
    expect(parseDuration('--x', '0')).toBe(0);
    expect(() => parseDuration('--x', '10')).toThrow('invalid --x "10": a duration such as 300ms, 10s or 1m30s');
    expect(() => parseDuration('--x', '5 m')).toThrow('invalid --x');
    expect(() => parseDuration('--x', '')).toThrow('invalid --x');
  });

  it('takes the history, continue, bookmark and request-timeout flags', () => {
    expect(parseServeArgs(['--history-retention', '2s', '--continue-ttl=1m', '--bookmark-interval', '500ms', '--min-request-timeout', '0'])).toEqual({
      port: 6443,
      host: '127.0.0.1',
      load: [],
      historyRetentionMs: 2000,
      continueTokenTtlMs: 60_000,
      bookmarkIntervalMs: 500,
      minRequestTimeoutSeconds: 0,
    });
    expect(() => parseServeArgs(['--bookmark-interval', '0'])).toThrow('invalid --bookmark-interval: must be positive');
    expect(() => parseServeArgs(['--history-retention'])).toThrow('--history-retention needs a value');
  });

  it('takes the namespace deletion delay as a Go duration', () => {
    expect(parseServeArgs(['--namespace-deletion-delay', '250ms']).namespaceDeletionDelayMs).toBe(250);
    expect(parseServeArgs(['--namespace-deletion-delay=0']).namespaceDeletionDelayMs).toBe(0);
    expect(parseServeArgs([]).namespaceDeletionDelayMs).toBeUndefined();
    expect(() => parseServeArgs(['--namespace-deletion-delay', 'soon'])).toThrow('invalid --namespace-deletion-delay "soon"');
  });

  it('takes --encryption-provider-config FILE', () => {
    expect(parseServeArgs(['--encryption-provider-config', '/etc/enc.yaml']).encryptionProviderConfig).toBe('/etc/enc.yaml');
    expect(parseServeArgs(['--encryption-provider-config=enc.yaml']).encryptionProviderConfig).toBe('enc.yaml');
    expect(() => parseServeArgs(['--encryption-provider-config'])).toThrow('--encryption-provider-config needs a value');
  });

  it('takes --tls, --api-domain, --reserved-domain and repeated --load', () => {
    expect(parseServeArgs(['--tls', '--api-domain', 'example.com', '--reserved-domain=example.io', '--load', 'a.yaml', 'b.yaml', '--load=c.yaml'])).toEqual({
      port: 6443,
      host: '127.0.0.1',
      load: ['a.yaml', 'b.yaml', 'c.yaml'],
      tls: true,
      apiDomain: 'example.com',
      reservedDomain: 'example.io',
    });
    expect(() => parseServeArgs(['--tls=false'])).toThrow('--tls takes no value');
    expect(() => parseServeArgs(['--api-domain', 'Example.COM'])).toThrow('invalid --api-domain "Example.COM"');
    expect(() => parseServeArgs(['--reserved-domain', 'a..b'])).toThrow('invalid --reserved-domain');
    expect(() => parseServeArgs(['--api-domain'])).toThrow('--api-domain needs a value');
  });

  it('parses --feature-gates as kube-apiserver does, and rejects anything else', () => {
    expect(parseServeArgs(['--feature-gates', 'CompositePodGroup=false,ShardedListAndWatch=true', '--feature-gates=EvictionRequestAPI=F'])).toMatchObject({
      featureGates: { CompositePodGroup: false, ShardedListAndWatch: true, EvictionRequestAPI: false },
    });
    expect(parseFeatureGates(' A=1 , B=False ,')).toEqual({ A: true, B: false });
    for (const bad of ['A', 'A=yes', '=true', 'A=true;B=false', '1A=true']) {
      expect(() => parseFeatureGates(bad)).toThrow('invalid --feature-gates');
    }
  });
});

describe('memkube serve admission flags', () => {
  it('takes --enable-admission-plugins and --disable-admission-plugins as comma-separated, repeatable lists', () => {
    expect(parseServeArgs(['--disable-admission-plugins', 'ServiceAccount, Priority', '--disable-admission-plugins=LimitRanger']).admission).toEqual({
      disable: ['ServiceAccount', 'Priority', 'LimitRanger'],
    });
    expect(parseServeArgs(['--enable-admission-plugins=NamespaceLifecycle']).admission).toEqual({ enable: ['NamespaceLifecycle'] });
    expect(parseServeArgs([]).admission).toBeUndefined();
  });

  it("rejects unknown plugin names with kube-apiserver's words", () => {
    expect(() => parseServeArgs(['--enable-admission-plugins', 'Bogus'])).toThrow('enable-admission-plugins plugin "Bogus" is unknown');
    expect(() => parseServeArgs(['--disable-admission-plugins', 'Bogus'])).toThrow('disable-admission-plugins plugin "Bogus" is unknown');
    expect(() => parseServeArgs(['--enable-admission-plugins', 'Priority', '--disable-admission-plugins', 'Priority'])).toThrow(
      '[Priority] in enable-admission-plugins and disable-admission-plugins overlapped',
    );
    expect(() => parseServeArgs(['--enable-admission-plugins'])).toThrow('--enable-admission-plugins needs a value');
  });
});
