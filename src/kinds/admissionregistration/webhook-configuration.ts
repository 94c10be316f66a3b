/**
 * What ValidatingWebhookConfiguration and MutatingWebhookConfiguration share: their generation,
 * table and strategy, which differ only in whether the webhooks mutate (reinvocation policy).
 */
import type { KindDeclaration, KubeObject } from '../../schema/define-kind.js';
import { jsonEqual } from '../../util/json-equal.js';
import { staticSuffixWarnings, validateStaticSuffix } from './static-suffix.js';
import { defaultWebhook, STRICT_WEBHOOK_OPTIONS, updateWebhookOptions, validateWebhooks, type Webhook } from './webhook.js';

/** A webhook configuration object of either kind. */
interface WebhookConfiguration extends KubeObject {
  webhooks?: Webhook[];
}

/** The declaration parts of a webhook configuration kind; `mutating` for MutatingWebhookConfiguration. */
export function webhookConfigurationParts<T extends WebhookConfiguration>(
  mutating: boolean,
): Pick<KindDeclaration<T>, 'generation' | 'schemaRequired' | 'allowUnconditionalUpdate' | 'printerColumns' | 'strategy'> {
  return {
    // 1 on create, one more when the webhooks change (reflect.DeepEqual in the strategies of
    // pkg/registry/admissionregistration/{validating,mutating}webhookconfiguration).
    generation: { changed: (obj, old) => !jsonEqual(obj.webhooks ?? null, old.webhooks ?? null) },
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
        for (const hook of config.webhooks ?? []) defaultWebhook(hook, mutating);
      },
      validate: (config, ctx) =>
        ctx.operation === 'create' ? [...validateWebhooks(config.webhooks ?? [], mutating, STRICT_WEBHOOK_OPTIONS), ...validateStaticSuffix(config, ctx)] : [],
      validateUpdate: (config, old) => validateWebhooks(config.webhooks ?? [], mutating, updateWebhookOptions(config.webhooks ?? [], old.webhooks ?? [])),
    },
  };
}
