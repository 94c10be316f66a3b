/** MutatingAdmissionPolicyBinding (admissionregistration v1, v1beta1, v1alpha1; cluster-scoped). */
import { child, fieldError, type FieldError } from '../../machinery/field-errors.js';
import { defineKind, type KindContext } from '../../schema/define-kind.js';
import { isDNS1123Subdomain, isPathSegmentName } from '../../schema/validation/names.js';
import { labelSelectorFromObject, type LabelSelectorObject } from '../../selectors/label-selector.js';
import { validateLabelSelector } from '../shared/label-selector-validation.js';
import { MutatingAdmissionPolicyBinding as V1, type ParamRef } from '../types/admissionregistration-v1.js';
import { MutatingAdmissionPolicyBinding as V1Alpha1 } from '../types/admissionregistration-v1alpha1.js';
import { MutatingAdmissionPolicyBinding as V1Beta1 } from '../types/admissionregistration-v1beta1.js';
import { specGeneration } from '../shared/semantic-equal.js';
import { defaultMatchResources, validateMatchResources, validateMutatingOperations, validateNotMatchingPolicies } from './match-resources.js';

/** A MutatingAdmissionPolicyBinding object (the v1 shape; v1beta1 and v1alpha1 have the same one). */
export type MutatingAdmissionPolicyBinding = V1;

/** `parameterNotFoundAction` values, in the order Kubernetes lists them. */
const PARAMETER_NOT_FOUND_ACTIONS = ['Deny', 'Allow'];
const EXCLUSIVE_MSG = 'name and selector are mutually exclusive';

/** `validateParamRef`: a path-segment `name` or a `selector` (one, not both), and a `parameterNotFoundAction`. */
function validateParamRef(pr: ParamRef, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const name = pr.name ?? '';
  if (name !== '') {
    for (const msg of isPathSegmentName(name)) errors.push(fieldError.invalid(child(path, 'name'), name, msg));
    if (pr.selector) errors.push(fieldError.forbidden(child(path, 'name'), EXCLUSIVE_MSG));
  }
  if (pr.selector) {
    errors.push(...validateLabelSelector(pr.selector, child(path, 'selector')));
    if (name !== '') errors.push(fieldError.forbidden(child(path, 'selector'), EXCLUSIVE_MSG));
  }
  if (name === '' && !pr.selector) errors.push(fieldError.required(path, 'one of name or selector must be specified'));
  const action = pr.parameterNotFoundAction ?? '';
  if (action === '') errors.push(fieldError.required(child(path, 'parameterNotFoundAction')));
  else if (!PARAMETER_NOT_FOUND_ACTIONS.includes(action))
    errors.push(fieldError.notSupported(child(path, 'parameterNotFoundAction'), action, PARAMETER_NOT_FOUND_ACTIONS));
  return errors;
}

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

/** The `ParamRef` printer column as Kubernetes prints it: `<namespace>/<name>`, `*\/<name>`, the selector, or `<unset>`. */
function paramRefColumn(binding: Readonly<MutatingAdmissionPolicyBinding>): string {
  const pr = binding.spec?.paramRef;
  if (!pr) return '<unset>';
  if (pr.name) return `${pr.namespace ? pr.namespace : '*'}/${pr.name}`;
  if (pr.selector) {
    try {
      return labelSelectorFromObject(pr.selector as LabelSelectorObject).toString();
    } catch {
      return '<error>';
    }
  }
  return '<unset>';
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
  versions: [
    { name: 'v1', schema: V1, served: true, storage: true },
    { name: 'v1beta1', schema: V1Beta1, served: true },
    { name: 'v1alpha1', schema: V1Alpha1, served: true },
  ],
  schemaRequired: false,
  allowUnconditionalUpdate: false,
  printerColumns: [
    {
      name: 'PolicyName',
      type: 'string',
      description: 'PolicyName indicates the policy definition which the policy binding binded to',
      value: (b) => b.spec?.policyName ?? '',
    },
    { name: 'ParamRef', type: 'string', description: 'ParamRef indicates the param resource which sets the configration param', value: paramRefColumn },
  ],
  strategy: {
    defaults(binding) {
      defaultMatchResources(binding.spec?.matchResources);
    },
    validate: validateSpec,
  },
});
