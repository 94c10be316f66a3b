/** The admissionregistration group's kinds. */
import type { KindDefinition } from '../../schema/define-kind.js';
import { MutatingAdmissionPolicyBindingKind } from './mutating-admission-policy-binding.js';
import { MutatingAdmissionPolicyKind } from './mutating-admission-policy.js';
import { MutatingWebhookConfigurationKind } from './mutating-webhook-configuration.js';
import { ValidatingAdmissionPolicyBindingKind } from './validating-admission-policy-binding.js';
import { ValidatingAdmissionPolicyKind } from './validating-admission-policy.js';
import { ValidatingWebhookConfigurationKind } from './validating-webhook-configuration.js';

export { MutatingAdmissionPolicyKind, type MutatingAdmissionPolicy } from './mutating-admission-policy.js';
export { MutatingAdmissionPolicyBindingKind, type MutatingAdmissionPolicyBinding } from './mutating-admission-policy-binding.js';
export { MutatingWebhookConfigurationKind, type MutatingWebhookConfiguration } from './mutating-webhook-configuration.js';
export { ValidatingAdmissionPolicyKind, type ValidatingAdmissionPolicy } from './validating-admission-policy.js';
export { ValidatingAdmissionPolicyBindingKind, type ValidatingAdmissionPolicyBinding } from './validating-admission-policy-binding.js';
export { ValidatingWebhookConfigurationKind, type ValidatingWebhookConfiguration } from './validating-webhook-configuration.js';
export { MANIFEST_BASED_ADMISSION_CONTROL_CONFIG } from './static-suffix.js';

/** The admission policies, their bindings and the webhook configurations. */
export const admissionregistrationKinds: readonly KindDefinition[] = [
  MutatingWebhookConfigurationKind,
  ValidatingWebhookConfigurationKind,
  ValidatingAdmissionPolicyKind,
  ValidatingAdmissionPolicyBindingKind,
  MutatingAdmissionPolicyKind,
  MutatingAdmissionPolicyBindingKind,
];
