/** ValidatingAdmissionPolicyBinding (admissionregistration v1, cluster-scoped). */
import { fieldError, index, type FieldError } from '../../machinery/field-errors.js';
import { staticSuffixWarnings, validateStaticSuffix } from './static-suffix.js';
import { defineKind } from '../../schema/define-kind.js';
import { isDNS1123Subdomain } from '../../schema/validation/names.js';
import { specGeneration } from '../shared/semantic-equal.js';
import { ValidatingAdmissionPolicyBinding as V1 } from '../types/admissionregistration-v1.js';
import { defaultMatchResources, validateMatchResources } from './match-resources.js';
import { paramRefColumn, validateParamRef } from './param-ref.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** A ValidatingAdmissionPolicyBinding object. */
export type ValidatingAdmissionPolicyBinding = V1;

/** `validationActions` values, sorted as Kubernetes lists them. */
const VALIDATION_ACTIONS = ['Audit', 'Deny', 'Warn'];

/** `validateValidationActions`: known, unique, not both Deny and Warn, at least one. */
function validateValidationActions(actions: readonly string[], path: string): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  actions.forEach((action, i) => {
    if (!VALIDATION_ACTIONS.includes(action)) errors.push(fieldError.notSupported(index(path, i), action, VALIDATION_ACTIONS));
    if (seen.has(action)) errors.push(fieldError.duplicate(index(path, i), action));
    seen.add(action);
  });
  if (seen.has('Deny') && seen.has('Warn'))
    errors.push(
      fieldError.invalid(
        path,
        actions,
        'must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)',
      ),
    );
  if (seen.size === 0) errors.push(fieldError.required(path, 'at least one validation action is required'));
  return errors;
}

/** `validateValidatingAdmissionPolicyBindingSpec`, with Kubernetes' field paths. */
function validateSpec(binding: ValidatingAdmissionPolicyBinding): FieldError[] {
  const spec: Partial<V1['spec']> = binding.spec ?? {};
  const errors: FieldError[] = [];
  const policyName = spec.policyName ?? '';
  if (policyName === '') errors.push(fieldError.required('spec.policyName'));
  else for (const msg of isDNS1123Subdomain(policyName)) errors.push(fieldError.invalid('spec.policyName', policyName, msg));
  if (spec.paramRef) errors.push(...validateParamRef(spec.paramRef, 'spec.paramRef'));
  // Kubernetes reports the match resources under this misspelt path.
  if (spec.matchResources) errors.push(...validateMatchResources(spec.matchResources, 'spec.matchResouces'));
  errors.push(...validateValidationActions(spec.validationActions ?? [], 'spec.validationActions'));
  return errors;
}

/**
 * ValidatingAdmissionPolicyBinding: `policyName` required (a DNS subdomain); `paramRef` by name or
 * selector with a `parameterNotFoundAction`; optional `matchResources` with Kubernetes' defaults
 * and rules; `validationActions` among Deny, Warn and Audit. Stored, not run.
 */
export const ValidatingAdmissionPolicyBindingKind = defineKind<ValidatingAdmissionPolicyBinding>({
  group: 'admissionregistration.{api_domain}',
  kind: 'ValidatingAdmissionPolicyBinding',
  plural: 'validatingadmissionpolicybindings',
  categories: ['api-extensions'],
  scope: 'Cluster',
  // 1 on create, one more when the spec changes (pkg/registry/admissionregistration/validatingadmissionpolicybinding/strategy.go).
  generation: specGeneration(V1),
  versions: [lazyVersion('v1', V1, { storage: true })],
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
    warnings: staticSuffixWarnings,
    defaults(binding) {
      // The spec is a Go struct: the server always serializes it.
      binding.spec ??= {} as V1['spec'];
      defaultMatchResources(binding.spec.matchResources);
    },
    validate: (binding, ctx) => [...validateSpec(binding), ...validateStaticSuffix(binding, ctx)],
  },
});
