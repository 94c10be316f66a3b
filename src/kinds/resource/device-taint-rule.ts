/** DeviceTaintRule (resource v1beta2, v1alpha3; cluster-scoped, with `/status`; gate DRADeviceTaintRules). */
import { fieldError, type FieldError } from '../../machinery/field-errors.js';
import { defineKind } from '../../schema/define-kind.js';
import { validateMetaConditions, type MetaCondition } from '../shared/conditions.js';
import { specGeneration } from '../shared/semantic-equal.js';
import { DeviceTaintRule as V1Alpha3 } from '../types/resource-v1alpha3.js';
import { DeviceTaintRule as V1Beta2 } from '../types/resource-v1beta2.js';
import { defaultTaint, validateTaint } from './dra-claim-rules.js';
import { validateTaintSelector } from './dra-slice-rules.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** A DeviceTaintRule object (v1beta2 and v1alpha3 have the same shape). */
export type DeviceTaintRule = V1Beta2;

/** The feature gate of DeviceTaintRule. */
export const DRA_DEVICE_TAINT_RULES = 'DRADeviceTaintRules';
const MAX_CONDITIONS = 8;

function validateSpec(rule: DeviceTaintRule, old: Readonly<DeviceTaintRule> | undefined): FieldError[] {
  const spec: Partial<DeviceTaintRule['spec']> = rule.spec ?? {};
  return [
    ...validateTaintSelector(spec.deviceSelector, 'spec.deviceSelector'),
    ...validateTaint(spec.taint ?? { key: '', effect: '' }, old?.spec?.taint, 'spec.taint'),
  ];
}

function validateStatus(rule: DeviceTaintRule): FieldError[] {
  const conditions = (rule.status?.conditions ?? []) as MetaCondition[];
  const errors = validateMetaConditions(conditions, 'status.conditions');
  if (conditions.length > MAX_CONDITIONS) errors.push(fieldError.tooMany('status.conditions', conditions.length, MAX_CONDITIONS));
  return errors;
}

/**
 * DeviceTaintRule: a taint (key a label key, value a label value, effect `NoSchedule`,
 * `NoExecute` or `None`, `timeAdded` defaulted to now) for the devices its selector names (driver,
 * pool, device); status conditions through `/status`. Nothing evicts anything in memkube.
 */
export const DeviceTaintRuleKind = defineKind<DeviceTaintRule>({
  group: 'resource.{api_domain}',
  kind: 'DeviceTaintRule',
  plural: 'devicetaintrules',
  scope: 'Cluster',
  featureGate: DRA_DEVICE_TAINT_RULES,
  // 1 on create, one more when the spec changes (pkg/registry/resource/devicetaintrule/strategy.go).
  generation: specGeneration(V1Beta2),
  versions: [lazyVersion('v1beta2', V1Beta2, { storage: true }), lazyVersion('v1alpha3', V1Alpha3 as unknown as typeof V1Beta2)],
  statusSubresource: true,
  schemaRequired: false,
  strategy: {
    defaults(rule, ctx) {
      rule.spec ??= { taint: { key: '', effect: '' } };
      rule.status ??= {};
      if (rule.spec.taint) defaultTaint(rule.spec.taint, ctx);
    },
    validate: (rule, ctx) => (ctx.operation === 'create' ? validateSpec(rule, undefined) : []),
    validateUpdate: (rule, old, ctx) => (ctx.subresource === 'status' ? validateStatus(rule) : validateSpec(rule, old)),
  },
});
