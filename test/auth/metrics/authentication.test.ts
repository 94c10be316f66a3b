/**
 * The authentication metrics from real requests: each request's outcome and duration and the
 * (collapsed) user, through a cluster's Fetch door; the remaining lifetime of client certificates
 * over real TLS; and the hash of the AuthenticationConfiguration in use.
 */
import { createHash } from 'node:crypto';
import { request as httpsRequest } from 'node:https';
import { afterEach, describe, expect, it } from 'vitest';
import { createCluster, type Cluster } from '../../../src/index.js';
import type { Listening } from '../../../src/http/listen.js';
import { compressUsername } from '../../../src/auth/metrics/index.js';
import { loadAuthenticationConfiguration } from '../../../src/config/authentication/index.js';
import { apiserverIdentity } from '../../../src/tracing/index.js';
import { generateServingCertificate, signClientCertificate, type CertificateAndKey } from '../../../src/pki/self-signed.js';

const USERS = 'authenticated_user_requests';
const ATTEMPTS = 'authentication_attempts';
const DURATION = 'authentication_duration_seconds';
const EXPIRATION = 'apiserver_client_certificate_expiration_seconds';
const CONFIG_INFO = 'apiserver_authentication_config_controller_last_config_info';
const sha = (s: string) => `sha256:${createHash('sha256').update(s).digest('hex')}`;

let clusters: Cluster[] = [];
afterEach(async () => {
  await Promise.all(clusters.map((c) => c.close()));
  clusters = [];
});

async function cluster(options: Parameters<typeof createCluster>[0] = {}): Promise<Cluster> {
  const c = await createCluster(options);
  clusters.push(c);
  return c;
}

async function get(c: Cluster, path: string, token?: string): Promise<number> {
  const res = await c.fetch(new Request(`http://memkube${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} }));
  await res.arrayBuffer();
  return res.status;
}

describe('compressUsername', () => {
  it('keeps the few well-known names, collapses email addresses and everything else', () => {
    for (const name of ['admin', 'client', 'kube_proxy', 'kubelet', 'system:serviceaccount:kube-system:default']) expect(compressUsername(name)).toBe(name);
    expect(compressUsername('jane@example.com')).toBe('email_id');
    expect(compressUsername('system:serviceaccount:default:builder')).toBe('other');
    expect(compressUsername('system:anonymous')).toBe('other');
    expect(compressUsername('x'.repeat(10_000))).toBe('other');
  });
});

describe('the authentication filter metrics', () => {
  const tokens = [
    { token: 'admin-token', user: { username: 'admin', groups: [] } },
    { token: 'jane-token', user: { username: 'jane@example.com', groups: [] } },
    { token: 'bob-token', user: { username: 'bob', groups: [] } },
  ];

  it('count each authenticated request by collapsed user, its success and its duration', async () => {
    const c = await cluster({ authentication: { anonymous: false, tokens } });
    expect(await get(c, '/version', 'admin-token')).toBe(200);
    expect(await get(c, '/version', 'jane-token')).toBe(200);
    expect(await get(c, '/version', 'bob-token')).toBe(200);
    expect(await get(c, '/version', 'bob-token')).toBe(200);
    // Back to a user seen before, then again: each request counts under its own user.
    expect(await get(c, '/version', 'admin-token')).toBe(200);
    expect(await get(c, '/version', 'jane-token')).toBe(200);
    expect(await c.metrics.value(USERS, { username: 'admin' })).toBe(2);
    expect(await c.metrics.value(USERS, { username: 'email_id' })).toBe(2);
    expect(await c.metrics.value(USERS, { username: 'other' })).toBe(2);
    expect(await c.metrics.value(ATTEMPTS, { result: 'success' })).toBe(6);
    expect(await c.metrics.value(DURATION, { result: 'success' })).toBe(6);
    // No series names a user as given.
    expect((await c.metrics.samples()).some((s) => Object.values(s.labels).some((v) => v.includes('jane') || v === 'bob'))).toBe(false);
  });

  it('count a request without credentials, anonymous requests off, as a failure; refused credentials as an error', async () => {
    const c = await cluster({ authentication: { anonymous: false, tokens } });
    expect(await get(c, '/version')).toBe(401);
    expect(await get(c, '/version', 'forged-token')).toBe(401);
    expect(await get(c, '/version', 'forged-token')).toBe(401);
    expect(await c.metrics.value(ATTEMPTS, { result: 'failure' })).toBe(1);
    expect(await c.metrics.value(ATTEMPTS, { result: 'error' })).toBe(2);
    expect(await c.metrics.value(DURATION, { result: 'error' })).toBe(2);
    expect(await c.metrics.value(USERS)).toBe(0);
  });

  it('count an anonymous request as a success of user other, and one outside the allowed paths as a failure', async () => {
    const c = await cluster({ authentication: { anonymous: { enabled: true, conditions: [{ path: '/livez' }] } } });
    expect(await get(c, '/livez')).toBe(200);
    expect(await get(c, '/version')).toBe(401);
    expect(await c.metrics.value(USERS, { username: 'other' })).toBe(1);
    expect(await c.metrics.value(ATTEMPTS, { result: 'success' })).toBe(1);
    expect(await c.metrics.value(ATTEMPTS, { result: 'failure' })).toBe(1);
  });

  it('carry kube-apiserver help texts and the exponential duration buckets', async () => {
    const c = await cluster({ authentication: { anonymous: false, tokens } });
    await get(c, '/version', 'bob-token');
    const text = await c.metrics.text();
    expect(text).toContain('# HELP authenticated_user_requests [ALPHA] Counter of authenticated requests broken out by username.');
    expect(text).toContain('# TYPE authenticated_user_requests counter');
    expect(text).toContain('# HELP authentication_attempts [ALPHA] Counter of authenticated attempts.');
    expect(text).toContain('# HELP authentication_duration_seconds [ALPHA] Authentication duration in seconds broken out by result.');
    expect(text).toContain('authentication_duration_seconds_bucket{le="0.001",result="success"}');
    expect(text).toContain('authentication_duration_seconds_bucket{le="16.384",result="success"}');
  });

  it('are not kept by a cluster made with metrics: false', async () => {
    const c = await cluster({ metrics: false, authentication: { anonymous: false, tokens } });
    expect(await get(c, '/version', 'bob-token')).toBe(200);
    expect(await c.metrics.value(ATTEMPTS)).toBe(0);
  });
});

function tlsGet(server: Listening, path: string, cert: CertificateAndKey): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(`${server.url}${path}`, { ca: server.certificateAuthority, cert: cert.cert, key: cert.key }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('apiserver_client_certificate_expiration_seconds', () => {
  it('observes the remaining lifetime of every client certificate presented, verified or not, expired ones below 0', async () => {
    const clientCA = (await generateServingCertificate({ hosts: ['127.0.0.1'], commonName: 'client-ca' })).ca;
    const otherCA = (await generateServingCertificate({ hosts: ['127.0.0.1'], commonName: 'other-ca' })).ca;
    const hour = 3_600_000;
    const twoHours = await signClientCertificate({ ca: clientCA, commonName: 'carol', now: Date.now(), validityMs: 2 * hour });
    const stranger = await signClientCertificate({ ca: otherCA, commonName: 'mallory', now: Date.now(), validityMs: 400 * 24 * hour });
    const expired = await signClientCertificate({ ca: clientCA, commonName: 'old', now: Date.now() - 3 * 24 * hour, validityMs: 24 * hour });
    const c = await cluster({ authentication: { anonymous: false } });
    const server = await c.listen({ tls: true, clientCA: clientCA.cert });
    expect(await tlsGet(server, '/version', twoHours)).toBe(200);
    expect(await c.metrics.value(EXPIRATION)).toBe(1);
    const remaining = await c.metrics.value(`${EXPIRATION}_sum`);
    // Issued "now" for two hours (to the second), observed moments later.
    expect(remaining).toBeGreaterThan(2 * 3600 - 120);
    expect(remaining).toBeLessThanOrEqual(2 * 3600);
    expect(await c.metrics.value(`${EXPIRATION}_bucket`, { le: '3600' })).toBe(0);
    expect(await c.metrics.value(`${EXPIRATION}_bucket`, { le: '7200' })).toBe(1);

    // Not signed by the client CA: observed all the same, and refused.
    expect(await tlsGet(server, '/version', stranger)).toBe(401);
    expect(await c.metrics.value(EXPIRATION)).toBe(2);
    expect(await c.metrics.value(`${EXPIRATION}_bucket`, { le: '31104000' })).toBe(1);
    // Expired two days ago: below the 0 bucket's bound.
    expect(await tlsGet(server, '/version', expired)).toBe(401);
    expect(await c.metrics.value(`${EXPIRATION}_bucket`, { le: '0' })).toBe(1);
    expect(await c.metrics.value(EXPIRATION)).toBe(3);
    expect(await c.metrics.value(ATTEMPTS, { result: 'error' })).toBe(2);
  });

  it('observes nothing for requests without a certificate', async () => {
    const c = await cluster();
    expect(await get(c, '/version')).toBe(200);
    expect(await c.metrics.value(EXPIRATION)).toBe(0);
    const text = await c.metrics.text();
    expect(text).toContain(
      '# HELP apiserver_client_certificate_expiration_seconds [ALPHA] Distribution of the remaining lifetime on the certificate used to authenticate a request.',
    );
  });
});

describe('apiserver_authentication_config_controller_last_config_info', () => {
  const text = 'apiVersion: apiserver.config.k8s.io/v1\nkind: AuthenticationConfiguration\nanonymous:\n  enabled: true\n  conditions:\n  - path: /livez\n';

  it('is the hash of the text of the AuthenticationConfiguration loaded, with the hashed server identity', async () => {
    const c = await cluster({ authentication: { config: loadAuthenticationConfiguration(text) } });
    const info = (await c.metrics.samples()).filter((s) => s.name === CONFIG_INFO);
    expect(info).toEqual([{ name: CONFIG_INFO, labels: { apiserver_id_hash: sha(apiserverIdentity()), hash: sha(text) }, value: 1 }]);
    expect(await c.metrics.text()).toContain(
      '# HELP apiserver_authentication_config_controller_last_config_info [ALPHA] Information about the last applied authentication configuration with hash as label, split by apiserver identity.',
    );
  });

  it('is absent without an AuthenticationConfiguration', async () => {
    const c = await cluster({ authentication: { anonymous: true } });
    expect(await c.metrics.value(CONFIG_INFO)).toBe(0);
  });
});
