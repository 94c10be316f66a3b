/** SubjectAccessReview, SelfSubjectAccessReview and LocalSubjectAccessReview (authorization.k8s.io/v1). */
import { fieldError } from '../../machinery/field-errors.js';
import { defineKind } from '../../schema/define-kind.js';
import {
  LocalSubjectAccessReview as LocalSubjectAccessReviewSchema,
  SelfSubjectAccessReview as SelfSubjectAccessReviewSchema,
  SubjectAccessReview as SubjectAccessReviewSchema,
} from '../types/authorization-v1.js';
import { metadataErrors, selfSubjectErrors, reviewAttributes, reviewStatus, subjectErrors, subjectOf } from './access-review-rules.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** A SubjectAccessReview object. */
export type SubjectAccessReview = SubjectAccessReviewSchema;
/** A SelfSubjectAccessReview object. */
export type SelfSubjectAccessReview = SelfSubjectAccessReviewSchema;
/** A LocalSubjectAccessReview object. */
export type LocalSubjectAccessReview = LocalSubjectAccessReviewSchema;

/**
 * SubjectAccessReview: may `spec.user` (with `spec.groups`, `uid`, `extra`) do this? The cluster's
 * authorizer chain answers, as pkg/registry/authorization/subjectaccessreview does.
 */
export const SubjectAccessReviewKind = defineKind<SubjectAccessReview>({
  group: 'authorization.{api_domain}',
  kind: 'SubjectAccessReview',
  plural: 'subjectaccessreviews',
  scope: 'Cluster',
  versions: [lazyVersion('v1', SubjectAccessReviewSchema, { storage: true })],
  strategy: { validate: (sar) => [...subjectErrors(sar.spec), ...metadataErrors(sar, false)] },
  review: async (sar, ctx) => ({ ...sar, status: reviewStatus(await ctx.auth.authorizer.authorize(reviewAttributes(subjectOf(sar.spec), sar.spec))) }),
});

/** SelfSubjectAccessReview (`kubectl auth can-i`): may I, the caller, do this? The authorizer chain answers. */
export const SelfSubjectAccessReviewKind = defineKind<SelfSubjectAccessReview>({
  group: 'authorization.{api_domain}',
  kind: 'SelfSubjectAccessReview',
  plural: 'selfsubjectaccessreviews',
  scope: 'Cluster',
  versions: [lazyVersion('v1', SelfSubjectAccessReviewSchema, { storage: true })],
  strategy: { validate: (ssar) => [...selfSubjectErrors(ssar.spec), ...metadataErrors(ssar, false)] },
  review: async (ssar, ctx) => ({ ...ssar, status: reviewStatus(await ctx.auth.authorizer.authorize(reviewAttributes(ctx.user, ssar.spec))) }),
});

/**
 * LocalSubjectAccessReview: a SubjectAccessReview inside one namespace, whose resource attributes
 * must name that namespace. The authorizer chain answers.
 */
export const LocalSubjectAccessReviewKind = defineKind<LocalSubjectAccessReview>({
  group: 'authorization.{api_domain}',
  kind: 'LocalSubjectAccessReview',
  plural: 'localsubjectaccessreviews',
  scope: 'Namespaced',
  versions: [lazyVersion('v1', LocalSubjectAccessReviewSchema, { storage: true })],
  strategy: {
    validate(lsar) {
      const errors = [...subjectErrors(lsar.spec), ...metadataErrors(lsar, true)];
      const attrs = lsar.spec?.resourceAttributes;
      const namespace = lsar.metadata?.namespace ?? '';
      if (attrs && (attrs.namespace ?? '') !== namespace) {
        errors.push(fieldError.invalid('spec.resourceAttributes.namespace', attrs.namespace ?? '', 'must match metadata.namespace'));
      }
      if (lsar.spec?.nonResourceAttributes !== undefined) {
        errors.push(fieldError.invalid('spec.nonResourceAttributes', lsar.spec.nonResourceAttributes, 'disallowed on this kind of request'));
      }
      return errors;
    },
  },
  review: async (lsar, ctx) => ({ ...lsar, status: reviewStatus(await ctx.auth.authorizer.authorize(reviewAttributes(subjectOf(lsar.spec), lsar.spec))) }),
});
