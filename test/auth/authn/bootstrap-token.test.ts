import { describe, expect, it } from 'vitest';
import { bootstrapTokenAuthenticator, type BootstrapTokenSecret } from '../../../src/auth/authn/bootstrap-token.js';
import { createCluster } from '../../../src/cluster.js';

const NOW = Date.parse('2026-06-01T00:00:00Z');
const b64 = (s: string) => Buffer.from(s).toString('base64');
const TOKEN = 'abcdef.0123456789abcdef';

function secret(data: Record<string, string> = {}, extra: Partial<BootstrapTokenSecret> = {}): BootstrapTokenSecret {
  const all = { 'token-id': 'abcdef', 'token-secret': '0123456789abcdef', 'usage-bootstrap-authentication': 'true', ...data };
  return { type: 'bootstrap.kubernetes.io/token', data: Object.fromEntries(Object.entries(all).map(([k, v]) => [k, b64(v)])), ...extra };
}

const authenticatorOver = (secrets: Record<string, BootstrapTokenSecret>) =>
  bootstrapTokenAuthenticator({ readSecret: (name) => Promise.resolve(secrets[name]), now: () => NOW });

describe('bootstrap token authenticator', () => {
  it('authenticates <id>.<secret> as system:bootstrap:<id> with the bootstrappers group and the extra groups, sorted', async () => {
    const a = authenticatorOver({
      'bootstrap-token-abcdef': secret({ 'auth-extra-groups': 'system:bootstrappers:worker,system:bootstrappers:a', expiration: '2026-06-02T00:00:00Z' }),
    });
    expect(await a.authenticateToken(TOKEN)).toEqual({
      user: { username: 'system:bootstrap:abcdef', groups: ['system:bootstrappers', 'system:bootstrappers:a', 'system:bootstrappers:worker'] },
    });
  });

  it.each([
    ['a wrong secret', secret({ 'token-secret': 'ffffffffffffffff' })],
    ['a token-id that differs from the name', secret({ 'token-id': 'zzzzzz' })],
    ['an expired token', secret({ expiration: '2026-05-31T23:59:59Z' })],
    ['an expiration that does not parse', secret({ expiration: 'tomorrow' })],
    ['no usage-bootstrap-authentication', secret({ 'usage-bootstrap-authentication': 'false' })],
    ['an extra group outside system:bootstrappers:', secret({ 'auth-extra-groups': 'system:masters' })],
    ['another Secret type', secret({}, { type: 'Opaque' })],
    ['a Secret being deleted', secret({}, { metadata: { deletionTimestamp: '2026-06-01T00:00:00Z' } })],
  ])('passes on a token of %s', async (_what, s) => {
    expect(await authenticatorOver({ 'bootstrap-token-abcdef': s }).authenticateToken(TOKEN)).toBeUndefined();
  });

  it('passes on tokens not of the bootstrap form without reading any Secret', async () => {
    let reads = 0;
    const a = bootstrapTokenAuthenticator({ readSecret: () => (reads++, Promise.resolve(secret())), now: () => NOW });
    for (const t of ['abcdef.0123456789abcde', 'ABCDEF.0123456789abcdef', 'abcdef0123456789abcdef', `abcdef.${'a'.repeat(10_000)}`, '']) {
      expect(await a.authenticateToken(t)).toBeUndefined();
    }
    expect(reads).toBe(0);
  });

  it("authenticates through a cluster's HTTP door only with bootstrapTokens on", async () => {
    const review = async (bootstrapTokens: boolean) => {
      const c = await createCluster({ clock: NOW, authentication: { bootstrapTokens } });
      await c.client.resource({ version: 'v1', resource: 'secrets' }).create({
        metadata: { name: 'bootstrap-token-abcdef', namespace: 'kube-system' },
        type: 'bootstrap.kubernetes.io/token',
        stringData: { 'token-id': 'abcdef', 'token-secret': '0123456789abcdef', 'usage-bootstrap-authentication': 'true' },
      } as never);
      const res = await c.fetch(
        new Request('http://memkube.invalid/apis/authentication.k8s.io/v1/selfsubjectreviews', {
          method: 'POST',
          headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
          body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }),
        }),
      );
      await c.close();
      return { status: res.status, body: (await res.json()) as { status?: { userInfo?: unknown } } };
    };
    const on = await review(true);
    expect(on.status).toBe(201);
    expect(on.body.status?.userInfo).toEqual({ username: 'system:bootstrap:abcdef', groups: ['system:bootstrappers', 'system:authenticated'] });
    expect((await review(false)).status).toBe(401);
  });
});
