/**
 * Authentication and authorization at the HTTP door, over real TLS: client certificates from a
 * client CA, static tokens, anonymous requests, impersonation, and the 401 and 403 answers.
 */
import { X509Certificate } from 'node:crypto';
import { request as httpsRequest } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createCluster, type Cluster } from '../../src/index.js';
import type { Listening } from '../../src/http/listen.js';
import { signClientCertificate, generateServingCertificate, type CertificateAndKey } from '../../src/pki/self-signed.js';

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

function call(
  server: Listening,
  path: string,
  o: { token?: string; cert?: CertificateAndKey; headers?: Record<string, string>; method?: string; body?: unknown } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      `${server.url}${path}`,
      {
        method: o.method ?? (o.body === undefined ? 'GET' : 'POST'),
        ca: server.certificateAuthority,
        ...(o.cert ? { cert: o.cert.cert, key: o.cert.key } : {}),
        headers: { ...(o.token ? { authorization: `Bearer ${o.token}` } : {}), ...o.headers },
      },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) as Record<string, unknown> }));
      },
    );
    req.on('error', reject);
    if (o.body !== undefined) req.setHeader('content-type', 'application/json');
    req.end(o.body === undefined ? undefined : JSON.stringify(o.body));
  });
}

describe('an HTTPS server with anonymous requests off, static tokens, a client CA and AlwaysDeny', () => {
  let cluster: Cluster;
  let server: Listening;
  let admin: CertificateAndKey;
  let carol: CertificateAndKey;
  let dave: CertificateAndKey;
  let stranger: CertificateAndKey;

  beforeAll(async () => {
    const clientCA = (await generateServingCertificate({ hosts: ['127.0.0.1'], commonName: 'client-ca' })).ca;
    const otherCA = (await generateServingCertificate({ hosts: ['127.0.0.1'], commonName: 'other-ca' })).ca;
    carol = await signClientCertificate({
      ca: clientCA,
      commonName: 'carol',
      organizations: ['system:masters'],
      now: Date.now(),
      validityMs: 365 * 24 * 3_600_000,
    });
    dave = await signClientCertificate({ ca: clientCA, commonName: 'dave', organizations: ['devs'], now: Date.now(), validityMs: 365 * 24 * 3_600_000 });
    stranger = await signClientCertificate({
      ca: otherCA,
      commonName: 'mallory',
      organizations: ['system:masters'],
      now: Date.now(),
      validityMs: 365 * 24 * 3_600_000,
    });
    cluster = await createCluster({
      authentication: { anonymous: false, tokens: [{ token: 'alice-token', user: { username: 'alice', uid: 'a1', groups: ['devs'] } }] },
      authorization: { modes: ['AlwaysDeny'] },
    });
    server = await cluster.listen({ tls: true, clientCA: clientCA.cert });
    const user = (parse(server.kubeconfig()) as { users: { user: Record<string, string> }[] }).users[0]!.user;
    admin = { cert: Buffer.from(user['client-certificate-data']!, 'base64').toString(), key: Buffer.from(user['client-key-data']!, 'base64').toString() };
  });
  afterAll(() => cluster.close());

  it('answers a request without credentials 401 Unauthorized', async () => {
    expect(await call(server, '/api/v1/namespaces')).toEqual({
      status: 401,
      body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 },
    });
  });

  it("answers 401 with kube-apiserver's bytes, and no WWW-Authenticate header", async () => {
    const res = await cluster.fetch(new Request('http://memkube/api/v1/namespaces', { headers: { authorization: 'Bearer nope' } }));
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBeNull();
    expect(await res.text()).toBe(
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Unauthorized","reason":"Unauthorized","code":401}\n',
    );
  });

  it('answers an unknown token, and a certificate from an untrusted CA, 401', async () => {
    expect((await call(server, '/api/v1/namespaces', { token: 'nope' })).status).toBe(401);
    expect((await call(server, '/version', { cert: stranger })).status).toBe(401);
  });

  it('authenticates by the bearer token sent with a certificate that does not verify, as union.New goes on to the next authenticator', async () => {
    // AlwaysDeny: alice, not a 401, is refused.
    const list = await call(server, '/api/v1/namespaces/default/configmaps', { cert: stranger, token: 'alice-token' });
    expect(list.status).toBe(403);
    expect(list.body.message).toBe(
      'configmaps is forbidden: User "alice" cannot list resource "configmaps" in API group "" in the namespace "default": Everything is forbidden.',
    );
    expect((await call(server, '/version', { cert: stranger, token: 'nope' })).status).toBe(401);
  });

  it("reviews a client certificate's user with its credential id, the SHA-256 of the certificate", async () => {
    const review = await call(server, '/apis/authentication.k8s.io/v1/selfsubjectreviews', {
      cert: carol,
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
    });
    expect(review.status).toBe(201);
    const sha256 = new X509Certificate(carol.cert).fingerprint256.replaceAll(':', '').toLowerCase();
    expect(review.body.status).toEqual({
      userInfo: {
        username: 'carol',
        groups: ['system:masters', 'system:authenticated'],
        extra: { 'authentication.kubernetes.io/credential-id': [`X509SHA256=${sha256}`] },
      },
    });
  });

  it("serves the kubeconfig's administrator, and a client certificate in system:masters", async () => {
    expect((await call(server, '/api/v1/namespaces', { cert: admin })).status).toBe(200);
    const review = await call(server, '/apis/authentication.k8s.io/v1/selfsubjectreviews', { cert: carol });
    expect(review.status).toBe(405); // a GET; the POST is below
    expect((await call(server, '/api/v1/namespaces/default/configmaps', { cert: carol })).status).toBe(200);
  });

  it("forbids a token user, in kube-apiserver's words, before finding out whether the resource exists", async () => {
    const list = await call(server, '/api/v1/namespaces/default/configmaps', { token: 'alice-token' });
    expect(list.status).toBe(403);
    expect(list.body.message).toBe(
      'configmaps is forbidden: User "alice" cannot list resource "configmaps" in API group "" in the namespace "default": Everything is forbidden.',
    );
    const unknown = await call(server, '/apis/example.com/v1/widgets/w', { token: 'alice-token' });
    expect(unknown.status).toBe(403);
    expect(unknown.body.message).toBe(
      'widgets.example.com "w" is forbidden: User "alice" cannot get resource "widgets" in API group "example.com" at the cluster scope: Everything is forbidden.',
    );
    const watch = await call(server, '/api/v1/namespaces/default/pods?watch=true&fieldSelector=metadata.name%3Dweb', { token: 'alice-token' });
    expect(watch.body.message).toBe(
      'pods "web" is forbidden: User "alice" cannot watch resource "pods" in API group "" in the namespace "default": Everything is forbidden.',
    );
  });

  it('forbids non-resource paths by path', async () => {
    const version = await call(server, '/version', { cert: dave });
    expect(version).toEqual({
      status: 403,
      body: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'forbidden: User "dave" cannot get path "/version": Everything is forbidden.',
        reason: 'Forbidden',
        details: {},
        code: 403,
      },
    });
  });

  it('authorizes impersonation: the administrator may act as bob (who is then forbidden), alice may not impersonate', async () => {
    const asBob = await call(server, '/api/v1/namespaces/default/secrets', { cert: admin, headers: { 'impersonate-user': 'bob' } });
    expect(asBob.body.message).toBe(
      'secrets is forbidden: User "bob" cannot list resource "secrets" in API group "" in the namespace "default": Everything is forbidden.',
    );
    const byAlice = await call(server, '/api/v1/namespaces/default/secrets', { token: 'alice-token', headers: { 'impersonate-user': 'bob' } });
    expect(byAlice.status).toBe(403);
    expect(byAlice.body.message).toBe(
      'users "bob" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope: Everything is forbidden.',
    );
  });

  it('forbids the in-process client acting as a user, and allows it as itself', async () => {
    await expect(
      cluster.client
        .as({ username: 'alice', groups: ['devs'] })
        .resource({ version: 'v1', resource: 'configmaps' })
        .list({ namespace: 'default' }),
    ).rejects.toMatchObject({
      code: 403,
      message: 'configmaps is forbidden: User "alice" cannot list resource "configmaps" in API group "" in the namespace "default": Everything is forbidden.',
    });
    expect((await cluster.client.resource({ version: 'v1', resource: 'namespaces' }).list()).items.length).toBeGreaterThan(0);
  });

  it('answers the reviews from the chain', async () => {
    const ssar = await cluster.client
      .as({ username: 'carol', groups: ['system:masters'] })
      .resource({ group: 'authorization.k8s.io', version: 'v1', resource: 'selfsubjectaccessreviews' });
    expect((await ssar.create({ spec: { resourceAttributes: { verb: 'delete', resource: 'nodes' } } })).status).toEqual({ allowed: true });
    const sar = cluster.client.resource({ group: 'authorization.k8s.io', version: 'v1', resource: 'subjectaccessreviews' });
    expect((await sar.create({ spec: { user: 'alice', resourceAttributes: { verb: 'get', resource: 'pods', namespace: 'default' } } })).status).toEqual({
      allowed: false,
      reason: 'Everything is forbidden.',
    });
  });
});

describe('a cluster with default options', () => {
  it('serves requests without credentials as system:anonymous, allowed', async () => {
    const cluster = await createCluster();
    const res = await cluster.fetch(
      new Request('http://x/apis/authentication.k8s.io/v1/selfsubjectreviews', {
        method: 'POST',
        body: '{"apiVersion":"authentication.k8s.io/v1","kind":"SelfSubjectReview"}',
        headers: { 'content-type': 'application/json' },
      }),
    );
    expect(res.status).toBe(201);
    expect(((await res.json()) as { status: unknown }).status).toEqual({ userInfo: { username: 'system:anonymous', groups: ['system:unauthenticated'] } });
    const admin = await cluster.fetch(
      new Request('http://x/apis/authentication.k8s.io/v1/selfsubjectreviews', {
        method: 'POST',
        body: '{"apiVersion":"authentication.k8s.io/v1","kind":"SelfSubjectReview"}',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${cluster.adminToken}` },
      }),
    );
    expect(((await admin.json()) as { status: unknown }).status).toEqual({
      userInfo: { username: 'system:admin', groups: ['system:masters', 'system:authenticated'] },
    });
    await cluster.close();
  });
});
