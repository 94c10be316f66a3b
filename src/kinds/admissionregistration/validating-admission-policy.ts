/** ValidatingAdmissionPolicy (admissionregistration v1, cluster-scoped, with `/status`). */
import { child, fieldError, index, type FieldError } from '../../machinery/field-errors.js';
import { staticSuffixWarnings, validateStaticSuffix } from './static-suffix.js';
import { defineKind, type KindContext } from '../../schema/define-kind.js';
import { isQualifiedName } from '../../schema/validation/names.js';
import { goJson } from '../../util/go-format.js';
import { jsonEqual } from '../../util/json-equal.js';
import { validateMetaConditions, type MetaCondition } from '../shared/conditions.js';
import { specGeneration } from '../shared/semantic-equal.js';
import { ValidatingAdmissionPolicy as V1, type AuditAnnotation, type Validation } from '../types/admissionregistration-v1.js';
import { GoPrinted } from '../../machinery/field-errors.js';
import { defaultMatchResources, validateMatchResources } from './match-resources.js';
import { validateMatchConditions, validateParamKind, validateVariable } from './policy-rules.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** A ValidatingAdmissionPolicy object. */
export type ValidatingAdmissionPolicy = V1;

/** `failurePolicy` values, sorted as Kubernetes lists them. */
const FAILURE_POLICIES = ['Fail', 'Ignore'];
/** The reasons a validation may give, sorted (`supportedValidationPolicyReason`). */
const VALIDATION_REASONS = ['Forbidden', 'Invalid', 'RequestEntityTooLarge'];
/** `maxAuditAnnotations`. */
const MAX_AUDIT_ANNOTATIONS = 20;
/** `maxAuditAnnotationValueExpressionLength`: 5 KiB. */
const MAX_AUDIT_VALUE_EXPRESSION_BYTES = 5 * 1024;
const AT_LEAST_ONE = 'validations or auditAnnotations must contain at least one item';

const trim = (s: string | undefined) => (s ?? '').trim();
const hasNewlines = (s: string) => /[\n\r]/.test(s);

/** `validateValidation` without compiling the expressions. */
function validateValidation(v: Validation, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (trim(v.expression) === '') errors.push(fieldError.required(child(path, 'expression'), 'expression is not specified'));
  const messageExpression = v.messageExpression ?? '';
  if (messageExpression !== '' && trim(messageExpression) === '')
    errors.push(fieldError.invalid(child(path, 'messageExpression'), messageExpression, 'must be non-empty if specified'));
  const message = v.message ?? '';
  if (message !== '' && trim(message) === '') errors.push(fieldError.invalid(child(path, 'message'), message, 'message must be non-empty if specified'));
  else if (hasNewlines(trim(message))) errors.push(fieldError.invalid(child(path, 'message'), message, 'message must not contain line breaks'));
  if (v.reason !== undefined && !VALIDATION_REASONS.includes(v.reason))
    errors.push(fieldError.notSupported(child(path, 'reason'), v.reason, VALIDATION_REASONS));
  return errors;
}

/** `validateAuditAnnotation` without compiling: `<policy name>/<key>` a qualified name, a value expression of at most 5 KiB. */
function validateAuditAnnotation(policyName: string, a: AuditAnnotation, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const key = a.key ?? '';
  if (policyName !== '') {
    const qualified = `${policyName}/${key}`;
    for (const msg of isQualifiedName(qualified)) errors.push(fieldError.invalid(child(path, 'key'), qualified, msg));
  } else {
    errors.push(fieldError.invalid(child(path, 'key'), key, 'requires metadata.name be non-empty'));
  }
  const value = trim(a.valueExpression);
  if (value === '') errors.push(fieldError.required(child(path, 'valueExpression'), 'valueExpression is not specified'));
  else if (Buffer.byteLength(value, 'utf8') > MAX_AUDIT_VALUE_EXPRESSION_BYTES)
    errors.push(fieldError.required(child(path, 'valueExpression'), `must not exceed ${MAX_AUDIT_VALUE_EXPRESSION_BYTES} bytes in length`));
  return errors;
}

/**
 * The list of audit annotations as Kubernetes shows it in the "too many" message: the internal Go
 * type has no JSON tags, so its fields print under their Go names.
 */
function auditAnnotationsValue(list: readonly AuditAnnotation[]): GoPrinted {
  return new GoPrinted(goJson(list.map((a) => ({ Key: a.key ?? '', ValueExpression: a.valueExpression ?? '' }))));
}

/** `validateValidatingAdmissionPolicySpec` (expressions not compiled), in Kubernetes' order. */
function validateSpec(policy: ValidatingAdmissionPolicy, ignoreMatchConditions: boolean): FieldError[] {
  const spec = policy.spec ?? {};
  const path = 'spec';
  const errors: FieldError[] = [];
  if (spec.failurePolicy === undefined) errors.push(fieldError.required(child(path, 'failurePolicy')));
  else if (!FAILURE_POLICIES.includes(spec.failurePolicy))
    errors.push(fieldError.notSupported(child(path, 'failurePolicy'), spec.failurePolicy, FAILURE_POLICIES));
  if (spec.paramKind) errors.push(...validateParamKind(spec.paramKind, child(path, 'paramKind')));
  const mc = spec.matchConstraints;
  if (!mc) {
    errors.push(fieldError.required(child(path, 'matchConstraints')));
  } else {
    errors.push(...validateMatchResources(mc, child(path, 'matchConstraints')));
    // At least one resource rule, to know the types the policy validates.
    if ((mc.resourceRules ?? []).length === 0) errors.push(fieldError.required(child(child(path, 'matchConstraints'), 'resourceRules')));
  }
  if (!ignoreMatchConditions) errors.push(...validateMatchConditions(spec.matchConditions ?? [], child(path, 'matchConditions')));
  (spec.variables ?? []).forEach((v, i) => errors.push(...validateVariable(v, index(child(path, 'variables'), i))));

  const validations = spec.validations ?? [];
  const annotations = spec.auditAnnotations;
  if (validations.length === 0 && (annotations ?? []).length === 0) {
    errors.push(fieldError.required(child(path, 'validations'), AT_LEAST_ONE));
    errors.push(fieldError.required(child(path, 'auditAnnotations'), AT_LEAST_ONE));
    return errors;
  }
  validations.forEach((v, i) => errors.push(...validateValidation(v, index(child(path, 'validations'), i))));
  if (annotations) {
    const annotationsPath = child(path, 'auditAnnotations');
    if (annotations.length > MAX_AUDIT_ANNOTATIONS)
      errors.push(fieldError.invalid(annotationsPath, auditAnnotationsValue(annotations), `must not have more than ${MAX_AUDIT_ANNOTATIONS} auditAnnotations`));
    const keys = new Set<string>();
    const name = policy.metadata?.name ?? '';
    annotations.forEach((a, i) => {
      const p = index(annotationsPath, i);
      errors.push(...validateAuditAnnotation(name, a, p));
      const key = a.key ?? '';
      if (keys.has(key)) errors.push(fieldError.duplicate(child(p, 'key'), key));
      keys.add(key);
    });
  }
  return errors;
}

/** `validateValidatingAdmissionPolicyStatus`: expression warnings (a warning and a field reference each) and metav1 conditions. */
function validateStatus(policy: ValidatingAdmissionPolicy): FieldError[] {
  const status = policy.status ?? {};
  const errors: FieldError[] = [];
  (status.typeChecking?.expressionWarnings ?? []).forEach((w, i) => {
    const p = index('status.typeChecking.expressionWarnings', i);
    if (!w.warning) errors.push(fieldError.required(child(p, 'warning')));
    if (trim(w.fieldRef) === '') errors.push(fieldError.required(child(p, 'fieldRef')));
  });
  errors.push(...validateMetaConditions((status.conditions ?? []) as MetaCondition[], 'status.conditions'));
  return errors;
}

/** The `ParamKind` printer column: `<apiVersion>/<kind>`, or `<unset>`. */
function paramKindColumn(policy: Readonly<ValidatingAdmissionPolicy>): string {
  const pk = policy.spec?.paramKind;
  return pk ? `${pk.apiVersion ?? ''}/${pk.kind ?? ''}` : '<unset>';
}

/**
 * ValidatingAdmissionPolicy: `failurePolicy` defaults to `Fail`; `matchConstraints` is required,
 * with Kubernetes' MatchResources defaults and rules and at least one resource rule; at least one
 * validation or audit annotation; match conditions, variables, validations and audit annotations
 * with Kubernetes' structural rules. CEL expressions are stored, not compiled. Status (written by
 * a controller in Kubernetes) changes only through `/status`. The policies are stored, not run.
 */
export const ValidatingAdmissionPolicyKind = defineKind<ValidatingAdmissionPolicy>({
  group: 'admissionregistration.{api_domain}',
  kind: 'ValidatingAdmissionPolicy',
  plural: 'validatingadmissionpolicies',
  categories: ['api-extensions'],
  scope: 'Cluster',
  // 1 on create, one more when the spec changes (pkg/registry/admissionregistration/validatingadmissionpolicy/strategy.go).
  generation: specGeneration(V1),
  versions: [lazyVersion('v1', V1, { storage: true })],
  statusSubresource: true,
  schemaRequired: false,
  allowUnconditionalUpdate: false,
  printerColumns: [
    {
      name: 'Validations',
      type: 'integer',
      description: 'Validations indicates the number of validation rules defined in this configuration',
      value: (p) => (p.spec?.validations ?? []).length,
    },
    { name: 'ParamKind', type: 'string', description: 'ParamKind specifies the kind of resources used to parameterize this policy', value: paramKindColumn },
  ],
  strategy: {
    warnings: staticSuffixWarnings,
    defaults(policy) {
      // Spec and status are Go structs: the server always serializes them.
      const spec = (policy.spec ??= {});
      policy.status ??= {};
      spec.failurePolicy ??= 'Fail';
      defaultMatchResources(spec.matchConstraints);
    },
    validate: (policy, ctx: KindContext) => (ctx.operation === 'create' ? [...validateSpec(policy, false), ...validateStaticSuffix(policy, ctx)] : []),
    validateUpdate(policy, old, ctx) {
      if (ctx.subresource === 'status') return validateStatus(policy);
      // Match conditions are checked again only when they or the paramKind changed.
      const unchanged =
        jsonEqual(policy.spec?.paramKind ?? null, old.spec?.paramKind ?? null) &&
        jsonEqual(policy.spec?.matchConditions ?? null, old.spec?.matchConditions ?? null);
      return validateSpec(policy, unchanged);
    },
  },
});
