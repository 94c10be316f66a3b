/** MutatingWebhookConfiguration (admissionregistration v1, cluster-scoped). */
import { defineKind } from '../../schema/define-kind.js';
import { MutatingWebhookConfiguration as V1 } from '../types/admissionregistration-v1.js';
import { webhookConfigurationParts } from './webhook-configuration.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** A MutatingWebhookConfiguration object. */
export type MutatingWebhookConfiguration = V1;

/**
 * MutatingWebhookConfiguration: each webhook gets the v1 defaults (`failurePolicy: Fail`,
 * `matchPolicy: Equivalent`, empty selectors, `timeoutSeconds: 10`, `reinvocationPolicy: Never`, rule
 * `scope: "*"`, service port 443) and Kubernetes' rules (a fully qualified unique name, `sideEffects` `None` or
 * `NoneOnDryRun`, AdmissionReview versions, exactly one of an https `url` or a `service`, rules,
 * match conditions). The configurations are stored, never called.
 */
export const MutatingWebhookConfigurationKind = defineKind<MutatingWebhookConfiguration>({
  group: 'admissionregistration.{api_domain}',
  kind: 'MutatingWebhookConfiguration',
  plural: 'mutatingwebhookconfigurations',
  categories: ['api-extensions'],
  scope: 'Cluster',
  versions: [lazyVersion('v1', V1, { storage: true })],
  ...webhookConfigurationParts<MutatingWebhookConfiguration>(true),
});
