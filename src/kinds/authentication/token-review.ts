/** TokenReview (authentication.k8s.io/v1): does a bearer token belong to a user? */
import { ALL_AUTHENTICATED, ALL_UNAUTHENTICATED } from '../../machinery/auth.js';
import { badRequest, internalError } from '../../machinery/errors.js';
import { userInfoOf } from './user-info.js';
import { defineKind } from '../../schema/define-kind.js';
import { TokenReview as TokenReviewSchema } from '../types/authentication-v1.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** A TokenReview object. */
export type TokenReview = TokenReviewSchema;

/**
 * TokenReview: `spec.token` is required (400); the cluster's token authenticators are asked about
 * it for `spec.audiences` (the API audiences when none), as pkg/registry/authentication/tokenreview
 * asks the server's authenticator: a known token answers `authenticated` with its user (in
 * `system:authenticated`) and audiences, anything else `authenticated: false` with the error.
 * Nothing is stored.
 */
export const TokenReviewKind = defineKind<TokenReview>({
  group: 'authentication.{api_domain}',
  kind: 'TokenReview',
  plural: 'tokenreviews',
  scope: 'Cluster',
  versions: [lazyVersion('v1', TokenReviewSchema, { storage: true })],
  async review(tr, ctx) {
    // pkg/registry/authentication/tokenreview/storage.go answers a missing token with a 400, not a 422.
    if (!tr.spec?.token) throw badRequest('token is required for TokenReview in authentication');
    const audiences = tr.spec.audiences?.length ? tr.spec.audiences : ctx.auth.serviceAccountTokens.apiAudiences;
    let result;
    try {
      result = await ctx.auth.tokenAuthenticator.authenticateToken(tr.spec.token, audiences.length ? audiences : undefined);
    } catch (e) {
      return { ...tr, status: { authenticated: false, user: {}, error: e instanceof Error ? e.message : String(e) } };
    }
    if (!result) return { ...tr, status: { authenticated: false, user: {}, error: 'invalid bearer token' } };
    if (audiences.length && result.audiences && !result.audiences.some((a) => audiences.includes(a))) {
      throw internalError('error validating audiences');
    }
    const groups = result.user.groups.some((g) => g === ALL_AUTHENTICATED || g === ALL_UNAUTHENTICATED)
      ? result.user.groups
      : [...result.user.groups, ALL_AUTHENTICATED];
    const status: NonNullable<TokenReview['status']> = { authenticated: true, user: userInfoOf({ ...result.user, groups }) };
    if (result.audiences?.length) status.audiences = [...result.audiences];
    return { ...tr, status };
  },
});
