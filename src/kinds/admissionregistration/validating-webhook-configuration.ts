/** ValidatingWebhookConfiguration (admissionregistration v1, cluster-scoped). */
import { staticSuffixWarnings, validateStaticSuffix } from './static-suffix.js';
import { defineKind } from '../../schema/define-kind.js';
import { jsonEqual } from '../../util/json-equal.js';
import { ValidatingWebhookConfiguration as V1 } from '../types/admissionregistration-v1.js';
import { defaultWebhook, STRICT_WEBHOOK_OPTIONS, updateWebhookOptions, validateWebhooks } from './webhook.js';

/** A ValidatingWebhookConfiguration object. */
export type ValidatingWebhookConfiguration = V1;

/**
 * ValidatingWebhookConfiguration: each webhook gets the v1 defaults (`failurePolicy: Fail`,
 * `matchPolicy: Equivalent`, empty selectors, `timeoutSeconds: 10`, rule `scope: "*"`, service port
 * 443) and Kubernetes' rules (a fully qualified unique name, `sideEffects` `None` or
 * `NoneOnDryRun`, AdmissionReview versions, exactly one of an https `url` or a `service`, rules,
 * match conditions). The configurations are stored, never called.
 */
export const ValidatingWebhookConfigurationKind = defineKind<ValidatingWebhookConfiguration>({
  group: 'admissionregistration.{api_domain}',
  kind: 'ValidatingWebhookConfiguration',
  plural: 'validatingwebhookconfigurations',
  categories: ['api-extensions'],
  scope: 'Cluster',
  // 1 on create, one more when the webhooks change (reflect.DeepEqual in
  // pkg/registry/admissionregistration/validatingwebhookconfiguration/strategy.go).
  generation: { changed: (obj, old) => !jsonEqual(obj.webhooks ?? null, old.webhooks ?? null) },
  versions: [{ name: 'v1', schema: V1, served: true, storage: true }],
  // The required fields are checked by the rules, with Kubernetes' messages.
  schemaRequired: false,
  allowUnconditionalUpdate: false,
  printerColumns: [
    {
      name: 'Webhooks',
      type: 'integer',
      description: 'Webhooks indicates the number of webhooks registered in this configuration',
      value: (c) => (c.webhooks ?? []).length,
    },
  ],
  strategy: {
    warnings: staticSuffixWarnings,
    defaults(config) {
      for (const hook of config.webhooks ?? []) defaultWebhook(hook, false);
    },
    validate: (config, ctx) =>
      ctx.operation === 'create' ? [...validateWebhooks(config.webhooks ?? [], false, STRICT_WEBHOOK_OPTIONS), ...validateStaticSuffix(config, ctx)] : [],
    validateUpdate: (config, old) => validateWebhooks(config.webhooks ?? [], false, updateWebhookOptions(config.webhooks ?? [], old.webhooks ?? [])),
  },
});
