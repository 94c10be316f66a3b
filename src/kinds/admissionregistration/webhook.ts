/**
 * The webhooks of ValidatingWebhookConfiguration and MutatingWebhookConfiguration: their v1
 * defaults (`SetDefaults_ValidatingWebhook`, `SetDefaults_MutatingWebhook`, `SetDefaults_Rule`,
 * `SetDefaults_ServiceReference` of pkg/apis/admissionregistration/v1/defaults.go) and their rules
 * (`validateValidatingWebhook`, `validateMutatingWebhook`, `validateAdmissionReviewVersions` of
 * pkg/apis/admissionregistration/validation, `ValidateWebhookURL` and `ValidateWebhookService` of
 * k8s.io/apiserver/pkg/util/webhook), with the options Kubernetes relaxes on update for objects
 * stored before a rule existed. Match condition expressions are not compiled.
 */
import { child, fieldError, index, type FieldError } from '../../machinery/field-errors.js';
import { inclusiveRangeError, isDNS1035Label, isDNS1123Subdomain } from '../../schema/validation/names.js';
import { goParseURL, goUserinfoString } from '../../util/go-url.js';
import { jsonEqual } from '../../util/json-equal.js';
import { validateLabelSelector } from '../shared/label-selector-validation.js';
import type { LabelSelector } from '../types/meta-v1.js';
import type { MatchCondition, MutatingWebhook, RuleWithOperations, ValidatingWebhook, WebhookClientConfig } from '../types/admissionregistration-v1.js';
import { defaultRule, validateRuleWithOperations } from './match-resources.js';
import { validateMatchConditions } from './policy-rules.js';

/** Either kind of webhook: a mutating one adds `reinvocationPolicy`. */
export type Webhook = ValidatingWebhook | MutatingWebhook;

/** `failurePolicy` values, sorted as Kubernetes lists them. */
const FAILURE_POLICIES = ['Fail', 'Ignore'];
/** `matchPolicy` values, sorted. */
const MATCH_POLICIES = ['Equivalent', 'Exact'];
/** Every side-effect class, sorted. */
const SIDE_EFFECT_CLASSES = ['None', 'NoneOnDryRun', 'Some', 'Unknown'];
/** The side-effect classes a new webhook may declare, sorted. */
const NO_SIDE_EFFECT_CLASSES = ['None', 'NoneOnDryRun'];
/** `reinvocationPolicy` values, sorted. */
const REINVOCATION_POLICIES = ['IfNeeded', 'Never'];
/** The AdmissionReview versions the server understands (`AcceptedAdmissionReviewVersions`). */
const ACCEPTED_REVIEW_VERSIONS = ['v1', 'v1beta1'];
/** What Kubernetes appends to a URL message. */
const URL_FORM = '; desired format: https://host[/path]';

/** The v1 defaults of one webhook (the mutating ones add `reinvocationPolicy: Never`). */
export function defaultWebhook(hook: Webhook, mutating: boolean): void {
  hook.failurePolicy ??= 'Fail';
  hook.matchPolicy ??= 'Equivalent';
  hook.namespaceSelector ??= {};
  hook.objectSelector ??= {};
  hook.timeoutSeconds ??= 10;
  if (mutating) (hook as MutatingWebhook).reinvocationPolicy ??= 'Never';
  for (const rule of hook.rules ?? []) defaultRule(rule);
  const service = hook.clientConfig?.service;
  if (service) service.port ??= 443;
}

/** How strictly a webhook configuration is checked: all true on create; on update, relaxed as the stored object needs. */
export interface WebhookValidationOptions {
  /** Skip `matchConditions` (an update that leaves every webhook's match conditions as they were). */
  readonly ignoreMatchConditions: boolean;
  /** Only `None` and `NoneOnDryRun` side effects. */
  readonly requireNoSideEffects: boolean;
  /** At least one AdmissionReview version the server understands. */
  readonly requireRecognizedAdmissionReviewVersion: boolean;
  /** Webhook names unique in the configuration. */
  readonly requireUniqueWebhookNames: boolean;
  /** Selector values need not be label values (a stored selector already breaks the rule). */
  readonly allowInvalidLabelValueInSelector: boolean;
}

/** The options of a create: every rule. */
export const STRICT_WEBHOOK_OPTIONS: WebhookValidationOptions = {
  ignoreMatchConditions: false,
  requireNoSideEffects: true,
  requireRecognizedAdmissionReviewVersion: true,
  requireUniqueWebhookNames: true,
  allowInvalidLabelValueInSelector: false,
};

const SELECTOR_VALUE_PATH = /\.matchExpressions\[\d+\]\.values\[\d+\]$/;

/** `ValidateLabelSelector`, optionally without checking that values are label values. */
function validateSelector(selector: LabelSelector, path: string, allowInvalidValues: boolean): FieldError[] {
  const errors = validateLabelSelector(selector, path);
  return allowInvalidValues ? errors.filter((e) => !(e.type === 'FieldValueInvalid' && SELECTOR_VALUE_PATH.test(e.field))) : errors;
}

/** `ValidateWebhookURL` with https required. */
export function validateWebhookURL(url: string, path: string): FieldError[] {
  const parsed = goParseURL(url);
  if (!parsed.ok) return [fieldError.required(path, `url must be a valid URL: ${parsed.error}${URL_FORM}`)];
  const u = parsed.url;
  const errors: FieldError[] = [];
  if (u.scheme !== 'https') errors.push(fieldError.invalid(path, u.scheme, `'https' is the only allowed URL scheme${URL_FORM}`));
  if (u.host === '') errors.push(fieldError.invalid(path, u.host, `host must be provided${URL_FORM}`));
  if (u.user) errors.push(fieldError.invalid(path, goUserinfoString(u.user), 'user information is not permitted in the URL'));
  if (u.fragment !== '') errors.push(fieldError.invalid(path, u.fragment, 'fragments are not permitted in the URL'));
  if (u.rawQuery !== '') errors.push(fieldError.invalid(path, u.rawQuery, 'query parameters are not permitted in the URL'));
  return errors;
}

/** `ValidateWebhookService`: name, namespace, port, and a path of DNS-subdomain segments. */
export function validateWebhookService(service: NonNullable<WebhookClientConfig['service']>, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (!service.name) errors.push(fieldError.required(child(path, 'name'), 'service name is required'));
  if (!service.namespace) errors.push(fieldError.required(child(path, 'namespace'), 'service namespace is required'));
  const port = service.port ?? 0;
  if (port < 1 || port > 65535) errors.push(fieldError.invalid(child(path, 'port'), port, `port is not valid: ${inclusiveRangeError(1, 65535)}`));
  const urlPath = service.path;
  if (urlPath === undefined || urlPath === '' || urlPath === '/') return errors;
  const pathPath = child(path, 'path');
  if (urlPath === '//') return [...errors, fieldError.invalid(pathPath, urlPath, 'segment[0] may not be empty')];
  if (!urlPath.startsWith('/')) errors.push(fieldError.invalid(pathPath, urlPath, "must start with a '/'"));
  let toCheck = urlPath.slice(1);
  if (toCheck.endsWith('/')) toCheck = toCheck.slice(0, -1);
  toCheck.split('/').forEach((step, i) => {
    if (step === '') {
      errors.push(fieldError.invalid(pathPath, urlPath, `segment[${i}] may not be empty`));
      return;
    }
    for (const msg of isDNS1123Subdomain(step)) errors.push(fieldError.invalid(pathPath, urlPath, `segment[${i}]: ${msg}`));
  });
  return errors;
}

/** `IsFullyQualifiedName`: a DNS subdomain of at least three segments. */
function validateFullyQualifiedName(name: string, path: string): FieldError[] {
  if (name === '') return [fieldError.required(path)];
  const msgs = isDNS1123Subdomain(name);
  if (msgs.length) return [fieldError.invalid(path, name, msgs.join(','))];
  if (name.split('.').length < 3) return [fieldError.invalid(path, name, 'should be a domain with at least three segments separated by dots')];
  return [];
}

/** `validateValidatingWebhook` / `validateMutatingWebhook`, in Kubernetes' order. */
function validateWebhook(hook: Webhook, mutating: boolean, opts: WebhookValidationOptions, path: string): FieldError[] {
  const errors = validateFullyQualifiedName(hook.name ?? '', child(path, 'name'));
  (hook.rules ?? []).forEach((rule: RuleWithOperations, i) => errors.push(...validateRuleWithOperations(rule, index(child(path, 'rules'), i))));
  if (hook.failurePolicy !== undefined && !FAILURE_POLICIES.includes(hook.failurePolicy))
    errors.push(fieldError.notSupported(child(path, 'failurePolicy'), hook.failurePolicy, FAILURE_POLICIES));
  if (hook.matchPolicy !== undefined && !MATCH_POLICIES.includes(hook.matchPolicy))
    errors.push(fieldError.notSupported(child(path, 'matchPolicy'), hook.matchPolicy, MATCH_POLICIES));
  const allowedSideEffects = opts.requireNoSideEffects ? NO_SIDE_EFFECT_CLASSES : SIDE_EFFECT_CLASSES;
  if (hook.sideEffects === undefined || hook.sideEffects === null)
    errors.push(fieldError.required(child(path, 'sideEffects'), `must specify one of ${allowedSideEffects.join(', ')}`));
  else if (!allowedSideEffects.includes(hook.sideEffects))
    errors.push(fieldError.notSupported(child(path, 'sideEffects'), hook.sideEffects, allowedSideEffects));
  const timeout = hook.timeoutSeconds;
  if (timeout !== undefined && (timeout > 30 || timeout < 1))
    errors.push(fieldError.invalid(child(path, 'timeoutSeconds'), timeout, 'the timeout value must be between 1 and 30 seconds'));
  if (hook.namespaceSelector) errors.push(...validateSelector(hook.namespaceSelector, child(path, 'namespaceSelector'), opts.allowInvalidLabelValueInSelector));
  if (hook.objectSelector) errors.push(...validateSelector(hook.objectSelector, child(path, 'objectSelector'), opts.allowInvalidLabelValueInSelector));
  const reinvocation = mutating ? (hook as MutatingWebhook).reinvocationPolicy : undefined;
  if (reinvocation !== undefined && !REINVOCATION_POLICIES.includes(reinvocation))
    errors.push(fieldError.notSupported(child(path, 'reinvocationPolicy'), reinvocation, REINVOCATION_POLICIES));

  const cc = hook.clientConfig ?? {};
  const ccPath = child(path, 'clientConfig');
  const hasURL = cc.url !== undefined && cc.url !== null;
  if (hasURL === Boolean(cc.service)) errors.push(fieldError.required(ccPath, 'exactly one of url or service is required'));
  else if (hasURL) errors.push(...validateWebhookURL(cc.url!, child(ccPath, 'url')));
  else errors.push(...validateWebhookService(cc.service!, child(ccPath, 'service')));

  if (!opts.ignoreMatchConditions) errors.push(...validateMatchConditions(hook.matchConditions ?? [], child(path, 'matchConditions')));
  return errors;
}

/** `validateAdmissionReviewVersions`. */
function validateAdmissionReviewVersions(versions: readonly string[], requireRecognized: boolean, path: string): FieldError[] {
  if (versions.length === 0) return [fieldError.required(path, `must specify one of ${ACCEPTED_REVIEW_VERSIONS.join(', ')}`)];
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  versions.forEach((v, i) => {
    if (seen.has(v)) {
      errors.push(fieldError.invalid(index(path, i), v, 'duplicate version'));
      return;
    }
    seen.add(v);
    for (const msg of isDNS1035Label(v)) errors.push(fieldError.invalid(index(path, i), v, msg));
  });
  if (requireRecognized && !versions.some((v) => ACCEPTED_REVIEW_VERSIONS.includes(v)))
    errors.push(fieldError.invalid(path, versions, `must include at least one of ${ACCEPTED_REVIEW_VERSIONS.join(', ')}`));
  return errors;
}

/** The rules of a webhook configuration's `webhooks`: each webhook, its review versions, unique names. */
export function validateWebhooks(webhooks: readonly Webhook[], mutating: boolean, opts: WebhookValidationOptions): FieldError[] {
  const errors: FieldError[] = [];
  const names = new Set<string>();
  webhooks.forEach((hook, i) => {
    const path = index('webhooks', i);
    errors.push(...validateWebhook(hook, mutating, opts, path));
    errors.push(
      ...validateAdmissionReviewVersions(
        hook.admissionReviewVersions ?? [],
        opts.requireRecognizedAdmissionReviewVersion,
        child(path, 'admissionReviewVersions'),
      ),
    );
    const name = hook.name ?? '';
    if (opts.requireUniqueWebhookNames && name !== '') {
      if (names.has(name)) errors.push(fieldError.duplicate(child(path, 'name'), name));
      else names.add(name);
    }
  });
  return errors;
}

const sameMatchConditions = (a: readonly MatchCondition[] | undefined, b: readonly MatchCondition[] | undefined) =>
  // reflect.DeepEqual: a nil list differs from an empty one.
  jsonEqual(a ?? null, b ?? null);

/**
 * The options of an update (`ValidateValidatingWebhookConfigurationUpdate`): each rule that the
 * stored webhooks already break is relaxed, so that an object stored under older rules can still
 * change; match conditions are checked only when some webhook's changed.
 */
export function updateWebhookOptions(webhooks: readonly Webhook[], old: readonly Webhook[]): WebhookValidationOptions {
  const oldNames = old.map((h) => h.name ?? '');
  return {
    ignoreMatchConditions: webhooks.length === old.length && old.every((h, i) => sameMatchConditions(webhooks[i]!.matchConditions, h.matchConditions)),
    requireNoSideEffects: old.every((h) => h.sideEffects !== undefined && NO_SIDE_EFFECT_CLASSES.includes(h.sideEffects)),
    requireRecognizedAdmissionReviewVersion: old.every((h) => {
      const versions = h.admissionReviewVersions ?? [];
      return versions.length === 0 || versions.some((v) => ACCEPTED_REVIEW_VERSIONS.includes(v));
    }),
    requireUniqueWebhookNames: new Set(oldNames).size === oldNames.length,
    allowInvalidLabelValueInSelector: old.some((h) =>
      [h.namespaceSelector, h.objectSelector].some((s) => s !== undefined && validateLabelSelector(s, '').length > 0),
    ),
  };
}
