/** The legacy token controller: token Secrets get their token, namespace and CA; orphans are deleted. */
import { describe, expect, it } from 'vitest';
import { SecretKind, ServiceAccountKind, type Secret } from '../../src/kinds/index.js';
import { isApiError } from '../../src/machinery/errors.js';
import { useTestCluster } from '../support/cluster.js';

const ROOT_CA = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const cluster = useTestCluster({ serviceAccounts: { rootCA: ROOT_CA } });
const secrets = () => cluster.client.resource(SecretKind);
const accounts = () => cluster.client.resource(ServiceAccountKind);
const text = (b64?: string) => Buffer.from(b64 ?? '', 'base64').toString();

function tokenSecret(name: string, account: string, extra: Partial<Secret> = {}): Secret {
  return { metadata: { name, annotations: { 'kubernetes.io/service-account.name': account } }, type: 'kubernetes.io/service-account-token', ...extra };
}

async function gone(name: string): Promise<boolean> {
  try {
    await secrets().get(name, { namespace: 'default' });
    return false;
  } catch (e) {
    if (isApiError(e, 'NotFound')) return true;
    throw e;
  }
}

describe('service account token controller', () => {
  it('fills a token Secret: a legacy token that authenticates, the namespace, the root CA and the account UID', async () => {
    const uid = (await accounts().create({ metadata: { name: 'builder' } }, { namespace: 'default' })).metadata!.uid!;
    await secrets().create(tokenSecret('builder-token', 'builder'), { namespace: 'default' });
    await cluster.settle();
    const s = await secrets().get('builder-token', { namespace: 'default' });
    expect(s.metadata?.annotations).toEqual({ 'kubernetes.io/service-account.name': 'builder', 'kubernetes.io/service-account.uid': uid });
    expect(text(s.data?.namespace)).toBe('default');
    expect(text(s.data?.['ca.crt'])).toBe(ROOT_CA);
    const token = text(s.data?.token);
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
    expect(claims).toEqual({
      iss: 'kubernetes/serviceaccount',
      'kubernetes.io/serviceaccount/namespace': 'default',
      'kubernetes.io/serviceaccount/secret.name': 'builder-token',
      'kubernetes.io/serviceaccount/service-account.name': 'builder',
      'kubernetes.io/serviceaccount/service-account.uid': uid,
      sub: 'system:serviceaccount:default:builder',
    });
    const who = await cluster.serviceAccountTokens.authenticator.authenticateToken(token);
    expect(who?.user).toEqual({ username: 'system:serviceaccount:default:builder', uid, groups: ['system:serviceaccounts', 'system:serviceaccounts:default'] });
  });

  it('keeps a token already there, and puts back a CA someone changed', async () => {
    await accounts().create({ metadata: { name: 'a' } }, { namespace: 'default' });
    const own = Buffer.from('my-token').toString('base64');
    await secrets().create(tokenSecret('a-token', 'a', { data: { token: own, 'ca.crt': Buffer.from('old').toString('base64') } }), { namespace: 'default' });
    await cluster.settle();
    const s = await secrets().get('a-token', { namespace: 'default' });
    expect(s.data?.token).toBe(own);
    expect(text(s.data?.['ca.crt'])).toBe(ROOT_CA);
  });

  it('deletes a token Secret whose account does not exist or has another UID', async () => {
    await secrets().create(tokenSecret('orphan', 'nobody'), { namespace: 'default' });
    await accounts().create({ metadata: { name: 'b' } }, { namespace: 'default' });
    const stale = tokenSecret('stale', 'b');
    stale.metadata!.annotations!['kubernetes.io/service-account.uid'] = 'not-the-uid';
    await secrets().create(stale, { namespace: 'default' });
    await cluster.settle();
    expect(await gone('orphan')).toBe(true);
    expect(await gone('stale')).toBe(true);
  });

  it('deleting the account deletes its token Secrets; other Secrets stay', async () => {
    await accounts().create({ metadata: { name: 'c' } }, { namespace: 'default' });
    await secrets().create(tokenSecret('c-token', 'c'), { namespace: 'default' });
    await secrets().create({ metadata: { name: 'plain' }, stringData: { a: 'b' } }, { namespace: 'default' });
    await cluster.settle();
    const token = text((await secrets().get('c-token', { namespace: 'default' })).data?.token);
    await accounts().delete('c', { namespace: 'default' });
    await cluster.settle();
    expect(await gone('c-token')).toBe(true);
    expect(await gone('plain')).toBe(false);
    await expect(cluster.serviceAccountTokens.authenticator.authenticateToken(token)).rejects.toThrow('Token has been invalidated');
  });

  it('a deleted token Secret leaves the account’s secrets list', async () => {
    await accounts().create({ metadata: { name: 'd' }, secrets: [{ name: 'd-token' }, { name: 'keep' }] }, { namespace: 'default' });
    await secrets().create(tokenSecret('d-token', 'd'), { namespace: 'default' });
    await cluster.settle();
    await secrets().delete('d-token', { namespace: 'default' });
    await cluster.settle();
    expect((await accounts().get('d', { namespace: 'default' })).secrets).toEqual([{ name: 'keep' }]);
  });
});
