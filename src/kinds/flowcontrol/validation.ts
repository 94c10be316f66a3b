/**
 * The rules of FlowSchema and PriorityLevelConfiguration (pkg/apis/flowcontrol/validation), with
 * Kubernetes' field paths and messages, and their v1 defaults (pkg/apis/flowcontrol/v1/defaults.go).
 */
import { child, fieldError, GoPrinted, index, type FieldError } from '../../machinery/field-errors.js';
import { isDNS1123Label, isDNS1123Subdomain } from '../../schema/validation/names.js';
import { semanticEqual } from '../shared/semantic-equal.js';
import type {
  FlowSchema,
  NonResourcePolicyRule,
  PolicyRulesWithSubjects,
  PriorityLevelConfiguration,
  ResourcePolicyRule,
  Subject,
} from '../types/flowcontrol-v1.js';
import { mandatoryFlowSchemas, mandatoryPriorityLevels } from './bootstrap.js';
import { goDistinguisherMethod, goFlowSchemaSpec, goPriorityLevelSpec } from './go-syntax.js';

/** `FlowSchemaMaxMatchingPrecedence`. */
export const MAX_MATCHING_PRECEDENCE = 10000;
/** `priorityLevelConfigurationQueuingMaxQueues`: 10^7. */
const MAX_QUEUES = 10_000_000;
/** `shufflesharding.MaxHashBits`. */
const MAX_HASH_BITS = 60;
/** The annotation v1beta3 used to keep a zero share count; never allowed on a stored object. */
export const PRESERVE_ZERO_SHARES_ANNOTATION = 'flowcontrol.apiserver.k8s.io/v1beta3-preserve-zero-concurrency-shares';

const DISTINGUISHER_METHODS = ['ByNamespace', 'ByUser'];
const VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'proxy', 'update', 'watch'];
const SUBJECT_KINDS = ['Group', 'ServiceAccount', 'User'];
const PRIORITY_LEVEL_TYPES = ['Exempt', 'Limited'];
const LIMIT_RESPONSE_TYPES = ['Queue', 'Reject'];
const NS_INTRO = "each member of this list must be '*' or a DNS-1123 label; ";

const hasWildcard = (list: readonly string[]) => list.includes('*');

// ---------------------------------------------------------------------------------------------
// Defaults
// ---------------------------------------------------------------------------------------------

/** `SetDefaults_FlowSchemaSpec`: `matchingPrecedence` 1000 when unset or 0. */
export function defaultFlowSchema(fs: FlowSchema): void {
  const spec = (fs.spec ??= {} as NonNullable<FlowSchema['spec']>);
  fs.status ??= {};
  if (!spec.matchingPrecedence) spec.matchingPrecedence = 1000;
}

/**
 * The v1 defaults of a priority level: an exempt level's shares and lendable percent 0; a limited
 * level's shares 30 and lendable percent 0; queuing 64 queues, hand size 8, queue length 50 (each
 * when unset or 0).
 */
export function defaultPriorityLevel(pl: PriorityLevelConfiguration): void {
  const spec = (pl.spec ??= {} as NonNullable<PriorityLevelConfiguration['spec']>);
  pl.status ??= {};
  if (spec.exempt) {
    spec.exempt.nominalConcurrencyShares ??= 0;
    spec.exempt.lendablePercent ??= 0;
  }
  const limited = spec.limited;
  if (limited) {
    limited.nominalConcurrencyShares ??= 30;
    limited.lendablePercent ??= 0;
    const queuing = limited.limitResponse?.queuing;
    if (queuing) {
      if (!queuing.handSize) queuing.handSize = 8;
      if (!queuing.queues) queuing.queues = 64;
      if (!queuing.queueLengthLimit) queuing.queueLengthLimit = 50;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// FlowSchema
// ---------------------------------------------------------------------------------------------

function validateSubject(subject: Subject, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const forbidUser = () => subject.user && errors.push(fieldError.forbidden(child(path, 'user'), "user is forbidden when subject kind is not 'User'"));
  const forbidGroup = () => subject.group && errors.push(fieldError.forbidden(child(path, 'group'), "group is forbidden when subject kind is not 'Group'"));
  const forbidSA = () =>
    subject.serviceAccount &&
    errors.push(fieldError.forbidden(child(path, 'serviceAccount'), "serviceAccount is forbidden when subject kind is not 'ServiceAccount'"));
  switch (subject.kind) {
    case 'ServiceAccount': {
      const sa = subject.serviceAccount;
      const p = child(path, 'serviceAccount');
      if (!sa) errors.push(fieldError.required(p, "serviceAccount is required when subject kind is 'ServiceAccount'"));
      else {
        if (!sa.name) errors.push(fieldError.required(child(p, 'name')));
        else if (sa.name !== '*') for (const m of isDNS1123Subdomain(sa.name)) errors.push(fieldError.invalid(child(p, 'name'), sa.name, m));
        if (!sa.namespace) errors.push(fieldError.required(child(p, 'namespace'), 'must specify namespace for service account'));
        else for (const m of isDNS1123Label(sa.namespace)) errors.push(fieldError.invalid(child(p, 'namespace'), sa.namespace, m));
      }
      forbidUser();
      forbidGroup();
      break;
    }
    case 'User':
      if (!subject.user) errors.push(fieldError.required(child(path, 'user'), "user is required when subject kind is 'User'"));
      else if (!subject.user.name) errors.push(fieldError.required(child(child(path, 'user'), 'name')));
      forbidSA();
      forbidGroup();
      break;
    case 'Group':
      if (!subject.group) errors.push(fieldError.required(child(path, 'group'), "group is required when subject kind is 'Group'"));
      else if (!subject.group.name) errors.push(fieldError.required(child(child(path, 'group'), 'name')));
      forbidSA();
      forbidUser();
      break;
    default:
      errors.push(fieldError.notSupported(child(path, 'kind'), subject.kind ?? '', SUBJECT_KINDS));
  }
  return errors;
}

function validateVerbs(verbs: readonly string[], path: string): FieldError[] {
  if (verbs.length === 0) return [fieldError.required(path, 'verbs must contain at least one value')];
  if (hasWildcard(verbs)) return verbs.length > 1 ? [fieldError.invalid(path, verbs, "if '*' is present, must not specify other verbs")] : [];
  return verbs.every((v) => VERBS.includes(v)) ? [] : [fieldError.notSupported(path, verbs, VERBS)];
}

/** `ValidateNonResourceURLPath`. */
function validateNonResourceURL(url: string, path: string): FieldError | undefined {
  if (url === '') return fieldError.invalid(path, url, 'must not be empty');
  if (url === '/') return undefined;
  if (!url.startsWith('/')) return fieldError.invalid(path, url, 'must start with slash');
  if (url.includes(' ')) return fieldError.invalid(path, url, 'must not contain white-space');
  if (url.includes('//')) return fieldError.invalid(path, url, 'must not contain double slash');
  const wildcards = url.split('*').length - 1;
  if (wildcards > 1 || (wildcards === 1 && !url.endsWith('/*'))) return fieldError.invalid(path, url, 'wildcard can only do suffix matching');
  return undefined;
}

function validateNonResourceRule(rule: NonResourcePolicyRule, path: string): FieldError[] {
  const errors = validateVerbs(rule.verbs ?? [], child(path, 'verbs'));
  const urls = rule.nonResourceURLs ?? [];
  const urlsPath = child(path, 'nonResourceURLs');
  if (urls.length === 0) errors.push(fieldError.required(urlsPath, 'nonResourceURLs must contain at least one value'));
  else if (hasWildcard(urls)) {
    if (urls.length > 1) errors.push(fieldError.invalid(urlsPath, urls, "if '*' is present, must not specify other non-resource URLs"));
  } else {
    urls.forEach((u, i) => {
      const e = validateNonResourceURL(u, index(urlsPath, i));
      if (e) errors.push(e);
    });
  }
  return errors;
}

function validateResourceRule(rule: ResourcePolicyRule, path: string): FieldError[] {
  const errors = validateVerbs(rule.verbs ?? [], child(path, 'verbs'));
  const groups = rule.apiGroups ?? [];
  if (groups.length === 0) errors.push(fieldError.required(child(path, 'apiGroups'), 'resource rules must supply at least one api group'));
  else if (groups.length > 1 && hasWildcard(groups))
    errors.push(fieldError.invalid(child(path, 'apiGroups'), groups, "if '*' is present, must not specify other api groups"));
  const resources = rule.resources ?? [];
  if (resources.length === 0) errors.push(fieldError.required(child(path, 'resources'), 'resource rules must supply at least one resource'));
  else if (resources.length > 1 && hasWildcard(resources))
    errors.push(fieldError.invalid(child(path, 'resources'), resources, "if '*' is present, must not specify other resources"));
  const namespaces = rule.namespaces ?? [];
  const nsPath = child(path, 'namespaces');
  if (namespaces.length === 0 && !rule.clusterScope)
    errors.push(fieldError.required(nsPath, 'resource rules that are not cluster scoped must supply at least one namespace'));
  else if (hasWildcard(namespaces)) {
    if (namespaces.length > 1) errors.push(fieldError.invalid(nsPath, namespaces, "if '*' is present, must not specify other namespaces"));
  } else {
    namespaces.forEach((ns, i) => {
      for (const m of isDNS1123Label(ns)) errors.push(fieldError.invalid(index(nsPath, i), ns, NS_INTRO + m));
    });
  }
  return errors;
}

function validateRule(rule: PolicyRulesWithSubjects, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const subjects = rule.subjects ?? [];
  if (subjects.length === 0) errors.push(fieldError.required(child(path, 'subjects'), 'subjects must contain at least one value'));
  subjects.forEach((s, i) => errors.push(...validateSubject(s, index(child(path, 'subjects'), i))));
  const resourceRules = rule.resourceRules ?? [];
  const nonResourceRules = rule.nonResourceRules ?? [];
  if (resourceRules.length === 0 && nonResourceRules.length === 0)
    errors.push(fieldError.required(path, 'at least one of resourceRules and nonResourceRules has to be non-empty'));
  resourceRules.forEach((r, i) => errors.push(...validateResourceRule(r, index(child(path, 'resourceRules'), i))));
  nonResourceRules.forEach((r, i) => errors.push(...validateNonResourceRule(r, index(child(path, 'nonResourceRules'), i))));
  return errors;
}

interface TypedCondition {
  type?: string;
}

/** `ValidateFlowSchemaStatus` / `ValidatePriorityLevelConfigurationStatus`: condition types present and unique. */
export function validateConditions(conditions: readonly TypedCondition[] | undefined): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  (conditions ?? []).forEach((c, i) => {
    const type = c.type ?? '';
    const p = index('status.conditions', i);
    if (seen.has(type)) errors.push(fieldError.duplicate(child(p, 'type'), type));
    seen.add(type);
    if (type === '') errors.push(fieldError.required(child(p, 'type'), 'must not be empty'));
  });
  return errors;
}

let mandatoryFS: Map<string, FlowSchema> | undefined;
let mandatoryPL: Map<string, PriorityLevelConfiguration> | undefined;

/** `ValidateFlowSchema` (create and update alike). */
export function validateFlowSchema(fs: FlowSchema): FieldError[] {
  const spec: Partial<NonNullable<FlowSchema['spec']>> = fs.spec ?? {};
  const name = fs.metadata?.name ?? '';
  const errors: FieldError[] = [];
  const mp = spec.matchingPrecedence ?? 0;
  const mpPath = 'spec.matchingPrecedence';
  if (mp <= 0) errors.push(fieldError.invalid(mpPath, mp, 'must be a positive value'));
  if (mp > MAX_MATCHING_PRECEDENCE) errors.push(fieldError.invalid(mpPath, mp, `must not be greater than ${MAX_MATCHING_PRECEDENCE}`));
  if (mp === 1 && name !== 'exempt') errors.push(fieldError.invalid(mpPath, mp, "only the schema named 'exempt' may have matchingPrecedence 1"));
  const dm = spec.distinguisherMethod;
  if (dm && !DISTINGUISHER_METHODS.includes(dm.type ?? ''))
    errors.push(fieldError.notSupported('spec.distinguisherMethod.type', new GoPrinted(goDistinguisherMethod(dm)), DISTINGUISHER_METHODS));
  const plName = spec.priorityLevelConfiguration?.name ?? '';
  const plPath = 'spec.priorityLevelConfiguration.name';
  if (plName === '') errors.push(fieldError.required(plPath, 'must reference a priority level'));
  else for (const m of isDNS1123Subdomain(plName)) errors.push(fieldError.invalid(plPath, plName, m));
  (spec.rules ?? []).forEach((r, i) => errors.push(...validateRule(r, index('spec.rules', i))));

  mandatoryFS ??= new Map(mandatoryFlowSchemas().map((m) => [m.metadata!.name!, m]));
  const mand = mandatoryFS.get(name);
  if (mand && !semanticEqual(fs.spec, mand.spec))
    errors.push(fieldError.invalid('spec', new GoPrinted(goFlowSchemaSpec(fs.spec)), `spec of '${name}' must equal the fixed value`));
  errors.push(...validateConditions(fs.status?.conditions));
  return errors;
}

// ---------------------------------------------------------------------------------------------
// PriorityLevelConfiguration
// ---------------------------------------------------------------------------------------------

function validateQueuing(
  q: NonNullable<NonNullable<NonNullable<PriorityLevelConfiguration['spec']>['limited']>['limitResponse']>['queuing'],
  path: string,
): FieldError[] {
  const errors: FieldError[] = [];
  const limit = q?.queueLengthLimit ?? 0;
  const queues = q?.queues ?? 0;
  const handSize = q?.handSize ?? 0;
  if (limit <= 0) errors.push(fieldError.invalid(child(path, 'queueLengthLimit'), limit, 'must be positive'));
  if (queues <= 0) errors.push(fieldError.invalid(child(path, 'queues'), queues, 'must be positive'));
  else if (queues > MAX_QUEUES) errors.push(fieldError.invalid(child(path, 'queues'), queues, `must not be greater than ${MAX_QUEUES}`));
  if (handSize <= 0) errors.push(fieldError.invalid(child(path, 'handSize'), handSize, 'must be positive'));
  else if (handSize > queues) errors.push(fieldError.invalid(child(path, 'handSize'), handSize, `should not be greater than queues (${queues})`));
  else if (Math.ceil(Math.log2(queues) * handSize) > MAX_HASH_BITS)
    errors.push(
      fieldError.invalid(
        child(path, 'handSize'),
        handSize,
        `required entropy bits of deckSize ${queues} and handSize ${handSize} should not be greater than ${MAX_HASH_BITS}`,
      ),
    );
  return errors;
}

const percentMsg = 'must be between 0 and 100, inclusive';

/** `ValidatePriorityLevelConfigurationSpec` with its parts (zero shares allowed, as since v1.30). */
function validatePriorityLevelSpec(pl: PriorityLevelConfiguration): FieldError[] {
  const spec: Partial<NonNullable<PriorityLevelConfiguration['spec']>> = pl.spec ?? {};
  const name = pl.metadata?.name ?? '';
  const type = spec.type ?? '';
  const errors: FieldError[] = [];
  if ((name === 'exempt') !== (type === 'Exempt')) errors.push(fieldError.invalid('spec.type', type, "type must be 'Exempt' if and only if name is 'exempt'"));
  switch (type) {
    case 'Exempt': {
      if (spec.limited) errors.push(fieldError.forbidden('spec.limited', 'must be nil if the type is not Limited'));
      const ex = spec.exempt;
      if (ex) {
        if (ex.nominalConcurrencyShares !== undefined && ex.nominalConcurrencyShares < 0)
          errors.push(fieldError.invalid('spec.exempt.nominalConcurrencyShares', ex.nominalConcurrencyShares, 'must be a non-negative integer'));
        if (ex.lendablePercent !== undefined && (ex.lendablePercent < 0 || ex.lendablePercent > 100))
          errors.push(fieldError.invalid('spec.exempt.lendablePercent', ex.lendablePercent, percentMsg));
      }
      break;
    }
    case 'Limited': {
      if (spec.exempt) errors.push(fieldError.forbidden('spec.exempt', 'must be nil if the type is Limited'));
      const lim = spec.limited;
      if (!lim) {
        errors.push(fieldError.required('spec.limited', 'must not be empty when type is Limited'));
        break;
      }
      const shares = lim.nominalConcurrencyShares ?? 0;
      if (shares < 0) errors.push(fieldError.invalid('spec.limited.nominalConcurrencyShares', shares, 'must be a non-negative integer'));
      const lr = lim.limitResponse ?? { type: '' };
      const lrPath = 'spec.limited.limitResponse';
      switch (lr.type) {
        case 'Reject':
          if (lr.queuing) errors.push(fieldError.forbidden(child(lrPath, 'queuing'), 'must be nil if limited.limitResponse.type is not Limited'));
          break;
        case 'Queue':
          if (!lr.queuing) errors.push(fieldError.required(child(lrPath, 'queuing'), 'must not be empty if limited.limitResponse.type is Limited'));
          else errors.push(...validateQueuing(lr.queuing, child(lrPath, 'queuing')));
          break;
        default:
          errors.push(fieldError.notSupported(child(lrPath, 'type'), lr.type ?? '', LIMIT_RESPONSE_TYPES));
      }
      if (lim.lendablePercent !== undefined && (lim.lendablePercent < 0 || lim.lendablePercent > 100))
        errors.push(fieldError.invalid('spec.limited.lendablePercent', lim.lendablePercent, percentMsg));
      if (lim.borrowingLimitPercent !== undefined && lim.borrowingLimitPercent < 0)
        errors.push(fieldError.invalid('spec.limited.borrowingLimitPercent', lim.borrowingLimitPercent, 'if specified, must be a non-negative integer'));
      break;
    }
    default:
      errors.push(fieldError.notSupported('spec.type', type, PRIORITY_LEVEL_TYPES));
  }
  return errors;
}

/**
 * Whether a mandatory priority level's spec is its fixed value. The `exempt` level's shares and
 * lendable percent are the administrator's to change.
 */
function isFixedSpec(pl: PriorityLevelConfiguration, mand: PriorityLevelConfiguration): boolean {
  if (pl.metadata?.name !== 'exempt') return semanticEqual(pl.spec, mand.spec);
  const spec = pl.spec;
  return spec?.type === 'Exempt' && spec.limited === undefined;
}

/** `ValidatePriorityLevelConfiguration` (create and update alike). */
export function validatePriorityLevel(pl: PriorityLevelConfiguration): FieldError[] {
  const errors: FieldError[] = [];
  if (pl.metadata?.annotations?.[PRESERVE_ZERO_SHARES_ANNOTATION] !== undefined)
    errors.push(fieldError.forbidden('metadata.annotations', `annotation '${PRESERVE_ZERO_SHARES_ANNOTATION}' is forbidden`));
  errors.push(...validatePriorityLevelSpec(pl));
  const name = pl.metadata?.name ?? '';
  mandatoryPL ??= new Map(mandatoryPriorityLevels().map((m) => [m.metadata!.name!, m]));
  const mand = mandatoryPL.get(name);
  if (mand && !isFixedSpec(pl, mand))
    errors.push(fieldError.invalid('spec', new GoPrinted(goPriorityLevelSpec(pl.spec)), `spec of '${name}' must equal the fixed value`));
  errors.push(...validateConditions(pl.status?.conditions));
  return errors;
}
