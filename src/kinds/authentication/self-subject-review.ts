/** SelfSubjectReview (authentication.k8s.io/v1): who the server takes the caller for. */
import { formatTime } from '../../clock.js';
import { defineKind } from '../../schema/define-kind.js';
import { SelfSubjectReview as SelfSubjectReviewSchema } from '../types/authentication-v1.js';
import { userInfoOf } from './user-info.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** A SelfSubjectReview object. */
export type SelfSubjectReview = SelfSubjectReviewSchema;

/**
 * SelfSubjectReview (`kubectl auth whoami`): a create answers a new review stamped with the current
 * time whose status holds the requesting user, as pkg/registry/authentication/selfsubjectreview
 * does; whatever the body held is not echoed back. Nothing is stored.
 */
export const SelfSubjectReviewKind = defineKind<SelfSubjectReview>({
  group: 'authentication.{api_domain}',
  kind: 'SelfSubjectReview',
  plural: 'selfsubjectreviews',
  scope: 'Cluster',
  versions: [lazyVersion('v1', SelfSubjectReviewSchema, { storage: true })],
  review: (_review, ctx) => ({ metadata: { creationTimestamp: formatTime(ctx.now()) }, status: { userInfo: userInfoOf(ctx.user) } }),
});
