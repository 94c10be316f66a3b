/** TokenReview (authentication.k8s.io/v1): does a bearer token belong to a user? */
import { badRequest } from '../../machinery/errors.js';
import { defineKind } from '../../schema/define-kind.js';
import { TokenReview as TokenReviewSchema } from '../types/authentication-v1.js';

/** A TokenReview object. */
export type TokenReview = TokenReviewSchema;

/**
 * TokenReview: `spec.token` is required (400); memkube issues no bearer tokens it could recognise, so
 * every token is answered unauthenticated (`status: { user: {} }`), as a server whose
 * authenticators all reject the token answers. Nothing is stored.
 */
export const TokenReviewKind = defineKind<TokenReview>({
  group: 'authentication.{api_domain}',
  kind: 'TokenReview',
  plural: 'tokenreviews',
  scope: 'Cluster',
  versions: [{ name: 'v1', schema: TokenReviewSchema, served: true, storage: true }],
  review(tr) {
    // pkg/registry/authentication/tokenreview/storage.go answers a missing token with a 400, not a 422.
    if (!tr.spec?.token) throw badRequest('token is required for TokenReview in authentication');
    return { ...tr, status: { user: {} } };
  },
});
