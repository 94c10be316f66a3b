import { describe, expect, it } from 'vitest';
import { HealthChecks } from '../../src/metrics/health.js';

const failing = (name: string, why: string) => ({
  name,
  check: () => {
    throw new Error(why);
  },
});
const ok = (name: string) => ({ name, check: () => undefined });

describe('HealthChecks', () => {
  const params = (q = '') => new URLSearchParams(q);

  it('answers ok, or every check with ?verbose', async () => {
    const h = new HealthChecks({ readyz: [ok('ping'), ok('etcd')] });
    expect(await h.answer('/readyz', params())).toEqual({ status: 200, body: 'ok' });
    expect(await h.answer('/readyz', params('verbose'))).toEqual({ status: 200, body: '[+]ping ok\n[+]etcd ok\nreadyz check passed\n' });
  });

  it('is verbose on failure with the reason withheld; the check alone says why', async () => {
    const h = new HealthChecks({ livez: [ok('ping'), failing('etcd', 'connection refused')] });
    expect(await h.answer('/livez', params())).toEqual({ status: 500, body: '[+]ping ok\n[-]etcd failed: reason withheld\nlivez check failed\n' });
    expect(await h.answer('/livez/etcd', params())).toEqual({ status: 500, body: 'internal server error: connection refused\n' });
    expect(await h.answer('/livez/ping', params())).toEqual({ status: 200, body: 'ok' });
  });

  it('excludes checks and warns of names that match none', async () => {
    const h = new HealthChecks({ healthz: [ok('ping'), failing('log', 'blocked')] });
    const a = await h.answer('/healthz', params('exclude=log&exclude=nope&verbose'));
    expect(a).toEqual({
      status: 200,
      body: '[+]ping ok\n[+]log excluded: ok\nwarn: some health checks cannot be excluded: no matches for "nope"\nhealthz check passed\n',
    });
  });

  it('is not a health path for other paths, unknown checks or inherited names', () => {
    const h = new HealthChecks({ healthz: [ok('ping')] });
    expect(h.answer('/metrics', params())).toBeUndefined();
    expect(h.answer('/healthz/nope', params())).toBeUndefined();
    expect(h.answer('/constructor', params())).toBeUndefined();
    expect(h.answer('/healthz/ping/more', params())).toBeUndefined();
  });

  it('records every run in the SLI gauge and counter', async () => {
    const h = new HealthChecks({ readyz: [ok('ping'), failing('etcd', 'down')] });
    await h.answer('/readyz', params());
    await h.answer('/readyz', params('exclude=etcd'));
    const slis = h.slis!;
    expect(await slis.value('cluster_healthcheck', { name: 'etcd', type: 'readyz' })).toBe(0);
    expect(await slis.value('cluster_healthcheck', { name: 'ping', type: 'readyz' })).toBe(1);
    expect(await slis.value('cluster_healthchecks_total', { name: 'ping', status: 'success', type: 'readyz' })).toBe(2);
    expect(await slis.value('cluster_healthchecks_total', { name: 'etcd', status: 'error', type: 'readyz' })).toBe(1);
    expect(await slis.text()).toContain('# HELP cluster_healthcheck [STABLE] This metric records the result of a single healthcheck.');
  });

  it('keeps no SLIs with ComponentSLIs off', () => {
    expect(new HealthChecks({}, { slis: false }).slis).toBeUndefined();
  });
});
