/** MutatingAdmissionPolicy (admissionregistration v1, v1beta1, v1alpha1; cluster-scoped). */
import { child, fieldError, index, type FieldError } from '../../machinery/field-errors.js';
import { defineKind, type KindContext } from '../../schema/define-kind.js';
import { MutatingAdmissionPolicy as V1 } from '../types/admissionregistration-v1.js';
import { MutatingAdmissionPolicy as V1Alpha1 } from '../types/admissionregistration-v1alpha1.js';
import { MutatingAdmissionPolicy as V1Beta1 } from '../types/admissionregistration-v1beta1.js';
import { specGeneration } from '../shared/semantic-equal.js';
import { defaultMatchResources, validateMatchResources, validateMutatingOperations, validateNotMatchingPolicies } from './match-resources.js';
import { validateMatchConditions, validateMutation, validateParamKind, validateVariable } from './policy-rules.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** A MutatingAdmissionPolicy object (the v1 shape; v1beta1 and v1alpha1 have the same one). */
export type MutatingAdmissionPolicy = V1;

/** `failurePolicy` values, sorted as Kubernetes lists them. */
const FAILURE_POLICIES = ['Fail', 'Ignore'];
/** `reinvocationPolicy` values, sorted as Kubernetes lists them. */
const REINVOCATION_POLICIES = ['IfNeeded', 'Never'];

/** `validateMutatingAdmissionPolicySpec`, in Kubernetes' order, plus memkube's rule against matching policy kinds. */
function validateSpec(policy: MutatingAdmissionPolicy, ctx: KindContext): FieldError[] {
  const spec = policy.spec ?? {};
  const path = 'spec';
  const errors: FieldError[] = [];

  if (spec.failurePolicy === undefined) errors.push(fieldError.required(child(path, 'failurePolicy')));
  else if (!FAILURE_POLICIES.includes(spec.failurePolicy))
    errors.push(fieldError.notSupported(child(path, 'failurePolicy'), spec.failurePolicy, FAILURE_POLICIES));

  if (spec.paramKind) errors.push(...validateParamKind(spec.paramKind, child(path, 'paramKind')));

  const mcPath = child(path, 'matchConstraints');
  const mc = spec.matchConstraints;
  if (!mc) {
    errors.push(fieldError.required(mcPath));
  } else {
    errors.push(...validateMatchResources(mc, mcPath));
    // A policy needs at least one resource rule to know the types it mutates.
    if ((mc.resourceRules ?? []).length === 0) errors.push(fieldError.required(child(mcPath, 'resourceRules')));
    else errors.push(...validateMutatingOperations(mc, mcPath));
    errors.push(...validateNotMatchingPolicies(mc, mcPath, ctx.apiDomain));
  }

  errors.push(...validateMatchConditions(spec.matchConditions ?? [], child(path, 'matchConditions')));
  (spec.variables ?? []).forEach((v, i) => errors.push(...validateVariable(v, index(child(path, 'variables'), i))));

  const mutations = spec.mutations ?? [];
  if (mutations.length === 0) errors.push(fieldError.required(child(path, 'mutations'), 'mutations must contain at least one item'));
  mutations.forEach((m, i) => errors.push(...validateMutation(m, index(child(path, 'mutations'), i))));

  const reinvocation = spec.reinvocationPolicy ?? '';
  if (reinvocation === '') errors.push(fieldError.required(child(path, 'reinvocationPolicy')));
  else if (!REINVOCATION_POLICIES.includes(reinvocation))
    errors.push(fieldError.notSupported(child(path, 'reinvocationPolicy'), reinvocation, REINVOCATION_POLICIES));
  return errors;
}

/** The `ParamKind` printer column: `<apiVersion>/<kind>`, or `<unset>`. */
function paramKindColumn(policy: Readonly<MutatingAdmissionPolicy>): string {
  const pk = policy.spec?.paramKind;
  return pk ? `${pk.apiVersion ?? ''}/${pk.kind ?? ''}` : '<unset>';
}

/**
 * MutatingAdmissionPolicy: `failurePolicy` defaults to `Fail`; `matchConstraints` is required, with
 * Kubernetes' MatchResources defaults and rules, only CREATE, UPDATE, CONNECT (or `*`), and never
 * the policy or binding kinds; at least one mutation; `reinvocationPolicy` required. Served at v1
 * (storage), v1beta1 and v1alpha1, which share one shape. CEL expressions are stored, not compiled.
 */
export const MutatingAdmissionPolicyKind = defineKind<MutatingAdmissionPolicy>({
  group: 'admissionregistration.{api_domain}',
  kind: 'MutatingAdmissionPolicy',
  plural: 'mutatingadmissionpolicies',
  categories: ['api-extensions'],
  scope: 'Cluster',
  // Generation 1 on create, one more for each change of the spec
  // (pkg/registry/admissionregistration/mutatingadmissionpolicy/strategy.go).
  generation: specGeneration(V1),
  versions: [lazyVersion('v1', V1, { storage: true }), lazyVersion('v1beta1', V1Beta1), lazyVersion('v1alpha1', V1Alpha1)],
  // The required fields are checked by the rules below, with Kubernetes' messages.
  schemaRequired: false,
  allowUnconditionalUpdate: false,
  printerColumns: [
    {
      name: 'Mutations',
      type: 'integer',
      description: 'Mutation indicates the number of mutations rules defined in this configuration',
      value: (p) => (p.spec?.mutations ?? []).length,
    },
    { name: 'ParamKind', type: 'string', description: 'ParamKind specifies the kind of resources used to parameterize this policy', value: paramKindColumn },
  ],
  strategy: {
    defaults(policy) {
      // The spec is a struct in Kubernetes, so its defaults apply even when it was not sent.
      const spec = (policy.spec ??= {});
      spec.failurePolicy ??= 'Fail';
      defaultMatchResources(spec.matchConstraints);
    },
    validate: validateSpec,
  },
});
