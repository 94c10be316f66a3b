/** A ServiceAccount's `token` subresource (TokenRequest): defaults, rules, bound objects and the token it signs. */
import { describe, expect, it } from 'vitest';
import { ADMIN_USER } from '../../../src/client/client.js';
import { NodeKind, PodKind, SecretKind, ServiceAccountKind } from '../../../src/kinds/index.js';
import type { ApiResponse } from '../../../src/machinery/request.js';
import type { TokenRequest } from '../../../src/kinds/types/authentication-v1.js';
import { statusOf, T0, testCluster, useTestCluster } from '../../support/cluster.js';

const ISSUER = 'https://kubernetes.default.svc.cluster.local';
const cluster = useTestCluster({ serviceAccounts: { maxTokenExpirationSeconds: 48 * 3600 } });
const T0S = T0.getTime() / 1000;

function post(name: string, body: TokenRequest, namespace = 'default'): Promise<ApiResponse> {
  return cluster.request({
    verb: 'create',
    resource: { group: '', version: 'v1', resource: 'serviceaccounts' },
    subresource: 'token',
    namespace,
    name,
    body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', ...body },
    user: ADMIN_USER,
  });
}

const account = async (name = 'sa') =>
  (await cluster.client.resource(ServiceAccountKind).create({ metadata: { name } }, { namespace: 'default' })).metadata!.uid!;
const claims = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
const answer = (res: ApiResponse) => res.body as TokenRequest;

async function pod(name: string, serviceAccountName = 'sa', nodeName?: string) {
  const created = await cluster.client
    .resource(PodKind)
    .create(
      { metadata: { name }, spec: { serviceAccountName, ...(nodeName ? { nodeName } : {}), containers: [{ name: 'c', image: 'nginx' }] } },
      { namespace: 'default' },
    );
  return created.metadata!.uid!;
}

describe('serviceaccounts/token', () => {
  it('answers 201 with the request defaulted and a signed token for the API audiences, an hour long', async () => {
    const uid = await account();
    const res = await post('sa', { spec: {} });
    expect(res.code).toBe(201);
    const tr = answer(res);
    expect(tr).toMatchObject({
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      metadata: { name: 'sa', namespace: 'default', uid, creationTimestamp: '2026-01-01T00:00:00Z' },
      spec: { audiences: [ISSUER], expirationSeconds: 3600 },
      status: { expirationTimestamp: '2026-01-01T01:00:00Z' },
    });
    expect(claims(tr.status!.token!)).toMatchObject({ iss: ISSUER, aud: [ISSUER], sub: 'system:serviceaccount:default:sa', iat: T0S, exp: T0S + 3600 });
    const who = await cluster.serviceAccountTokens.authenticator.authenticateToken(tr.status!.token!);
    expect(who?.user).toMatchObject({ username: 'system:serviceaccount:default:sa', uid });
  });

  it('keeps the audiences and expiry asked for; caps the expiry at the maximum, with a warning', async () => {
    await account();
    const res = await post('sa', { spec: { audiences: ['vault'], expirationSeconds: 7200 } });
    expect(answer(res).spec).toEqual({ audiences: ['vault'], expirationSeconds: 7200 });
    const long = await post('sa', { spec: { expirationSeconds: 72 * 3600 } });
    expect(long.warnings).toEqual(['requested expiration of 259200 seconds shortened to 172800 seconds']);
    expect(answer(long).spec?.expirationSeconds).toBe(172800);
    expect(claims(answer(long).status!.token!).exp).toBe(T0S + 172800);
  });

  it('validates the expiry: at least ten minutes, at most 2^32 seconds', async () => {
    await account();
    expect((await statusOf(() => post('sa', { spec: { expirationSeconds: 599 } }))).message).toBe(
      'TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes',
    );
    const big = await statusOf(() => post('sa', { spec: { expirationSeconds: 2 ** 32 + 1 } }));
    expect(big.code).toBe(422);
    expect(big.message).toBe(
      'TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 4294967297: may not specify a duration larger than 2^32 seconds',
    );
    expect((await post('sa', { spec: { expirationSeconds: 600 } })).code).toBe(201);
  });

  it('the body’s name, namespace and UID must be the account’s', async () => {
    await account();
    expect((await statusOf(() => post('sa', { metadata: { name: 'other' }, spec: {} }))).message).toBe(
      'TokenRequest.authentication.k8s.io "sa" is invalid: metadata.name: Invalid value: "other": must match the service account name if specified',
    );
    expect((await statusOf(() => post('sa', { metadata: { namespace: 'kube-system' }, spec: {} }))).message).toBe(
      'TokenRequest.authentication.k8s.io "sa" is invalid: metadata.namespace: Invalid value: "kube-system": must match the service account namespace if specified',
    );
    const uid = (await cluster.client.resource(ServiceAccountKind).get('sa', { namespace: 'default' })).metadata!.uid!;
    const conflict = await statusOf(() => post('sa', { metadata: { uid: 'stale' }, spec: {} }));
    expect(conflict.code).toBe(409);
    expect(conflict.message).toBe(
      `Operation cannot be fulfilled on TokenRequest.authentication.k8s.io "sa": the UID in the token request (stale) does not match the UID of the service account (${uid})`,
    );
    expect((await statusOf(() => post('nobody', { spec: {} }))).message).toBe('serviceaccounts "nobody" not found');
  });

  it('binds a pod of the account, with its node; the token stops working once the pod is deleted', async () => {
    await account();
    const nodeUid = (await cluster.client.resource(NodeKind).create({ metadata: { name: 'n1' } })).metadata!.uid!;
    const podUid = await pod('p', 'sa', 'n1');
    const res = await post('sa', { spec: { boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'p', uid: podUid } } });
    const token = answer(res).status!.token!;
    expect(claims(token)['kubernetes.io']).toMatchObject({ pod: { name: 'p', uid: podUid }, node: { name: 'n1', uid: nodeUid } });
    const auth = cluster.serviceAccountTokens.authenticator;
    expect((await auth.authenticateToken(token))?.user.extra).toMatchObject({
      'authentication.kubernetes.io/pod-name': ['p'],
      'authentication.kubernetes.io/node-name': ['n1'],
    });
    await cluster.client.resource(PodKind).delete('p', { namespace: 'default', gracePeriodSeconds: 0 });
    await cluster.settle();
    await expect(auth.authenticateToken(token)).rejects.toThrow('service account token has been invalidated');
  });

  it('a pod on a node that does not exist names the node without a UID', async () => {
    await account();
    await pod('p', 'sa', 'ghost');
    const token = answer(await post('sa', { spec: { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'p' } } })).status!.token!;
    expect((claims(token)['kubernetes.io'] as Record<string, unknown>).node).toEqual({ name: 'ghost' });
  });

  it('binds a secret and a node', async () => {
    await account();
    const secretUid = (await cluster.client.resource(SecretKind).create({ metadata: { name: 's' } }, { namespace: 'default' })).metadata!.uid!;
    const secret = answer(await post('sa', { spec: { boundObjectRef: { apiVersion: 'v1', kind: 'Secret', name: 's' } } }));
    expect(claims(secret.status!.token!)['kubernetes.io']).toMatchObject({ secret: { name: 's', uid: secretUid } });
    await cluster.client.resource(NodeKind).create({ metadata: { name: 'n2' } });
    const node = answer(await post('sa', { spec: { boundObjectRef: { apiVersion: 'v1', kind: 'Node', name: 'n2' } } }));
    expect(claims(node.status!.token!)['kubernetes.io']).toMatchObject({ node: { name: 'n2' } });
    expect(await cluster.serviceAccountTokens.authenticator.authenticateToken(node.status!.token!)).toBeDefined();
  });

  it('refuses bound objects as TokenREST does', async () => {
    await account();
    await account('other');
    await pod('theirs', 'other');
    const ref = (r: object) => post('sa', { spec: { boundObjectRef: r } });
    expect((await statusOf(() => ref({ apiVersion: 'v1', kind: 'Pod', name: 'theirs' }))).message).toBe(
      'cannot bind token for serviceaccount "sa" to pod running with different serviceaccount name.',
    );
    expect((await statusOf(() => ref({ apiVersion: 'v1', kind: 'Pod', name: 'missing' }))).message).toBe('pods "missing" not found');
    expect((await statusOf(() => ref({ apiVersion: 'v1', kind: 'Secret', name: 'missing' }))).message).toBe('secrets "missing" not found');
    expect((await statusOf(() => ref({ apiVersion: 'v1', kind: 'Node', name: 'missing' }))).message).toBe('nodes "missing" not found');
    expect((await statusOf(() => ref({ apiVersion: 'v1', kind: 'ConfigMap', name: 'x' }))).message).toBe(
      'cannot bind token to object of type /v1, Kind=ConfigMap',
    );
    expect((await statusOf(() => ref({ apiVersion: 'apps/v1', kind: 'Pod', name: 'x' }))).message).toBe(
      'cannot bind token to object of type apps/v1, Kind=Pod',
    );
    expect((await statusOf(() => ref({ apiVersion: 'v1', kind: 'Pod' }))).message).toBe('Name parameter required.');
    expect((await statusOf(() => ref({ apiVersion: 'v1', kind: 'Pod', name: 'a/b' }))).message).toBe('Name parameter invalid: "a/b": may not contain \'/\'');
    await pod('mine');
    const stale = await statusOf(() => ref({ apiVersion: 'v1', kind: 'Pod', name: 'mine', uid: 'old' }));
    expect(stale.code).toBe(409);
    expect(stale.message).toBe(
      'Operation cannot be fulfilled on Pod "mine": the UID in the bound object reference (old) does not match the UID in record. The object might have been deleted and then recreated',
    );
  });

  it('refuses node binding when its feature gate is off', async () => {
    const gated = await testCluster({ featureGates: { ServiceAccountTokenNodeBinding: false } });
    try {
      await gated.client.resource(ServiceAccountKind).create({ metadata: { name: 'sa' } }, { namespace: 'default' });
      const status = await statusOf(() =>
        gated.request({
          verb: 'create',
          resource: { group: '', version: 'v1', resource: 'serviceaccounts' },
          subresource: 'token',
          namespace: 'default',
          name: 'sa',
          body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { boundObjectRef: { kind: 'Node', apiVersion: 'v1', name: 'n' } } },
          user: ADMIN_USER,
        }),
      );
      expect(status.message).toBe('cannot bind token to a Node object as the "ServiceAccountTokenNodeBinding" feature-gate is disabled');
    } finally {
      await gated.close();
    }
  });
});
