/** MutatingAdmissionPolicyBinding (admissionregistration v1, v1beta1, v1alpha1; cluster-scoped). */
import { fieldError, type FieldError } from '../../machinery/field-errors.js';
import { defineKind, type KindContext } from '../../schema/define-kind.js';
import { isDNS1123Subdomain } from '../../schema/validation/names.js';
import { MutatingAdmissionPolicyBinding as V1 } from '../types/admissionregistration-v1.js';
import { MutatingAdmissionPolicyBinding as V1Alpha1 } from '../types/admissionregistration-v1alpha1.js';
import { MutatingAdmissionPolicyBinding as V1Beta1 } from '../types/admissionregistration-v1beta1.js';
import { specGeneration } from '../shared/semantic-equal.js';
import { paramRefColumn, validateParamRef } from './param-ref.js';
import { defaultMatchResources, validateMatchResources, validateMutatingOperations, validateNotMatchingPolicies } from './match-resources.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** A MutatingAdmissionPolicyBinding object (the v1 shape; v1beta1 and v1alpha1 have the same one). */
export type MutatingAdmissionPolicyBinding = V1;

/** `validateMutatingAdmissionPolicyBindingSpec`, plus memkube's rule against matching policy kinds. */
function validateSpec(binding: MutatingAdmissionPolicyBinding, ctx: KindContext): FieldError[] {
  const spec = binding.spec ?? {};
  const errors: FieldError[] = [];
  const policyName = spec.policyName ?? '';
  if (policyName === '') errors.push(fieldError.required('spec.policyName'));
  else for (const msg of isDNS1123Subdomain(policyName)) errors.push(fieldError.invalid('spec.policyName', policyName, msg));
  if (spec.paramRef) errors.push(...validateParamRef(spec.paramRef, 'spec.paramRef'));
  const mr = spec.matchResources;
  if (mr) {
    errors.push(...validateMatchResources(mr, 'spec.matchResources'));
    errors.push(...validateMutatingOperations(mr, 'spec.matchResources'));
    errors.push(...validateNotMatchingPolicies(mr, 'spec.matchResources', ctx.apiDomain));
  }
  return errors;
}

/**
 * MutatingAdmissionPolicyBinding: `policyName` required (a DNS subdomain); `paramRef` names its
 * parameter by name or selector and says what to do when none is found; optional `matchResources`
 * with Kubernetes' defaults and rules (no DELETE, never the policy or binding kinds). Served at v1
 * (storage), v1beta1 and v1alpha1, which share one shape.
 */
export const MutatingAdmissionPolicyBindingKind = defineKind<MutatingAdmissionPolicyBinding>({
  group: 'admissionregistration.{api_domain}',
  kind: 'MutatingAdmissionPolicyBinding',
  plural: 'mutatingadmissionpolicybindings',
  categories: ['api-extensions'],
  scope: 'Cluster',
  // Generation 1 on create, one more for each change of the spec
  // (pkg/registry/admissionregistration/mutatingadmissionpolicybinding/strategy.go).
  generation: specGeneration(V1),
  versions: [lazyVersion('v1', V1, { storage: true }), lazyVersion('v1beta1', V1Beta1), lazyVersion('v1alpha1', V1Alpha1)],
  schemaRequired: false,
  allowUnconditionalUpdate: false,
  printerColumns: [
    {
      name: 'PolicyName',
      type: 'string',
      description: 'PolicyName indicates the policy definition which the policy binding binded to',
      value: (b) => b.spec?.policyName ?? '',
    },
    {
      name: 'ParamRef',
      type: 'string',
      description: 'ParamRef indicates the param resource which sets the configration param',
      value: (b) => paramRefColumn(b.spec?.paramRef),
    },
  ],
  strategy: {
    defaults(binding) {
      defaultMatchResources(binding.spec?.matchResources);
    },
    validate: validateSpec,
  },
});
