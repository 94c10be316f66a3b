/** The admissionregistration group's kinds. */
import type { KindDefinition } from '../../schema/define-kind.js';
import { MutatingAdmissionPolicyBindingKind } from './mutating-admission-policy-binding.js';
import { MutatingAdmissionPolicyKind } from './mutating-admission-policy.js';

export { MutatingAdmissionPolicyKind, type MutatingAdmissionPolicy } from './mutating-admission-policy.js';
export { MutatingAdmissionPolicyBindingKind, type MutatingAdmissionPolicyBinding } from './mutating-admission-policy-binding.js';

/** MutatingAdmissionPolicy and MutatingAdmissionPolicyBinding. */
export const admissionregistrationKinds: readonly KindDefinition[] = [MutatingAdmissionPolicyKind, MutatingAdmissionPolicyBindingKind];
