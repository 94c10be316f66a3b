import { describe, expect, it } from 'vitest';
import { authenticationKinds, SelfSubjectReviewKind, TokenReviewKind, type TokenReview } from '../../../src/kinds/authentication/index.js';
import { createCluster } from '../../../src/index.js';
import { statusOf, useTestCluster } from '../../support/cluster.js';

const cluster = useTestCluster({ kinds: authenticationKinds });

describe('SelfSubjectReview', () => {
  it('answers the requesting user, stamped with the cluster time, and stores nothing', async () => {
    const alice = { username: 'alice', uid: 'u-1', groups: ['dev', 'system:authenticated'], extra: { scopes: ['a', 'b'] } };
    const review = await cluster.client
      .as(alice)
      .resource(SelfSubjectReviewKind)
      .create({ metadata: { name: 'ignored' } });
    expect(review).toEqual({
      kind: 'SelfSubjectReview',
      apiVersion: 'authentication.k8s.io/v1',
      metadata: { creationTimestamp: '2026-01-01T00:00:00Z' },
      status: { userInfo: { username: 'alice', uid: 'u-1', groups: ['dev', 'system:authenticated'], extra: { scopes: ['a', 'b'] } } },
    });
    const list = await statusOf(() => cluster.client.resource(SelfSubjectReviewKind).list());
    expect(list.code).toBe(405);
  });
});

describe('TokenReview', () => {
  it("answers a token no authenticator knows unauthenticated, with the bearer authenticator's error", async () => {
    const review = await cluster.client.resource(TokenReviewKind).create({ spec: { token: 'abc', audiences: ['api'] } });
    expect(review.status).toEqual({ authenticated: false, user: {}, error: 'invalid bearer token' });
    expect(review.spec).toEqual({ token: 'abc', audiences: ['api'] });
  });

  it('answers a known token with its user, in system:authenticated', async () => {
    const review = await cluster.client.resource(TokenReviewKind).create({ spec: { token: cluster.adminToken } });
    // A static token knows no audiences: it is answered for the API audiences (the service account issuer by default).
    expect(review.status).toEqual({
      authenticated: true,
      user: { username: 'system:admin', groups: ['system:masters', 'system:authenticated'] },
      audiences: ['https://kubernetes.default.svc.cluster.local'],
    });
  });

  it('answers a static token for the API audiences it was asked about, not all of them (Audiences.Intersect)', async () => {
    const c = await createCluster({
      kinds: authenticationKinds,
      serviceAccounts: { apiAudiences: ['a', 'b'] },
      authentication: { tokens: [{ token: 't', user: { username: 'alice', groups: [] } }] },
    });
    try {
      const review = (audiences: string[]) => c.client.resource(TokenReviewKind).create({ spec: { token: 't', audiences } });
      expect((await review(['x', 'b'])).status).toEqual({
        authenticated: true,
        user: { username: 'alice', groups: ['system:authenticated'] },
        audiences: ['b'],
      });
      expect((await review([])).status?.audiences).toEqual(['a', 'b']);
      expect((await review(['x'])).status).toEqual({ authenticated: false, user: {}, error: 'invalid bearer token' });
    } finally {
      await c.close();
    }
  });

  it('refuses a review without a token with 400, as the real server does', async () => {
    const status = await statusOf(() => cluster.client.resource(TokenReviewKind).create({ spec: {} } as TokenReview));
    expect(status.code).toBe(400);
    expect(status.message).toBe('token is required for TokenReview in authentication');
  });

  it('serves no verb but create', async () => {
    for (const call of [() => cluster.client.resource(TokenReviewKind).get('x'), () => cluster.client.resource(TokenReviewKind).delete('x')]) {
      const status = await statusOf(call);
      expect(status.code).toBe(405);
      expect(status.reason).toBe('MethodNotAllowed');
    }
  });
});
