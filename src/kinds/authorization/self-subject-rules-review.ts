/** SelfSubjectRulesReview (authorization.k8s.io/v1): what may I do in a namespace? */
import { badRequest } from '../../machinery/errors.js';
import { defineKind } from '../../schema/define-kind.js';
import { SelfSubjectRulesReview as SelfSubjectRulesReviewSchema } from '../types/authorization-v1.js';

/** A SelfSubjectRulesReview object. */
export type SelfSubjectRulesReview = SelfSubjectRulesReviewSchema;

/**
 * SelfSubjectRulesReview (`kubectl auth can-i --list`): `spec.namespace` is required (400, as
 * pkg/registry/authorization/selfsubjectrulesreview answers); memkube does not authorize requests,
 * so the rules are those of an authorizer that allows everything: every verb on every resource and
 * every non-resource URL.
 */
export const SelfSubjectRulesReviewKind = defineKind<SelfSubjectRulesReview>({
  group: 'authorization.{api_domain}',
  kind: 'SelfSubjectRulesReview',
  plural: 'selfsubjectrulesreviews',
  scope: 'Cluster',
  versions: [{ name: 'v1', schema: SelfSubjectRulesReviewSchema, served: true, storage: true }],
  review(review) {
    if (!review.spec?.namespace) throw badRequest('no namespace on request');
    return {
      metadata: {},
      spec: {},
      status: {
        resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
        nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
        incomplete: false,
      },
    };
  },
});
