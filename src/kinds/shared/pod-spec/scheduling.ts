/**
 * Validation of the scheduling and networking parts of a PodSpec: tolerations, taint effects,
 * node/pod (anti-)affinity, topology spread constraints, DNS config, host aliases, readiness and
 * scheduling gates, image pull secrets (`pkg/apis/core/validation/validation.go`).
 */
import { child, fieldError, index, type FieldError } from '../../../machinery/field-errors.js';
import { isDNS1123Subdomain, isValidLabelValue, regexError, validateNamespaceName } from '../../../schema/validation/names.js';
import { validateLabelName } from '../../../schema/validation/object-meta.js';
import type { LabelSelector } from '../../types/meta-v1.js';
import type { NodeSelectorRequirement, NodeSelectorTerm, PodAffinityTerm, PodSpec, Toleration, WeightedPodAffinityTerm } from '../../types/core-v1.js';
import { dns1123SubdomainErrors, legacyIPErrors, positiveFieldErrors, qualifiedNameErrors } from './formats.js';
import { validateLabelSelector } from '../label-selector-validation.js';

/** `validateTaintEffect`. */
export function taintEffectErrors(effect: string, allowEmpty: boolean, path: string): FieldError[] {
  if (!allowEmpty && effect === '') return [fieldError.required(path)];
  if (effect === 'NoSchedule' || effect === 'PreferNoSchedule' || effect === 'NoExecute') return [];
  return [fieldError.notSupported(path, effect, ['NoSchedule', 'PreferNoSchedule', 'NoExecute'])];
}

/** `ValidateTolerations`. */
export function tolerationErrors(tolerations: Toleration[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  tolerations.forEach((t, i) => {
    const p = index(path, i);
    const k = t.key ?? '';
    const op = t.operator ?? '';
    const value = t.value ?? '';
    const effect = t.effect ?? '';
    if (k.length > 0) errs.push(...validateLabelName(k, child(p, 'key')));
    if (k.length === 0 && op !== 'Exists') {
      errs.push(fieldError.invalid(child(p, 'operator'), op, 'operator must be Exists when `key` is empty, which means "match all values and all keys"'));
    }
    if (t.tolerationSeconds !== undefined && effect !== 'NoExecute') {
      errs.push(fieldError.invalid(child(p, 'effect'), effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    }
    switch (op) {
      case 'Equal':
      case '': {
        const msgs = isValidLabelValue(value);
        if (msgs.length) errs.push(fieldError.invalid(child(p, 'operator'), value, msgs.join(';')));
        break;
      }
      case 'Exists':
        if (value.length > 0) errs.push(fieldError.invalid(child(p, 'operator'), value, "value must be empty when `operator` is 'Exists'"));
        break;
      case 'Lt':
      case 'Gt':
        // TaintTolerationComparisonOperators is alpha (off) in v1.36.
        errs.push(fieldError.notSupported(child(p, 'operator'), op, ['Equal', 'Exists', 'Lt', 'Gt']));
        break;
      default:
        errs.push(fieldError.notSupported(child(p, 'operator'), op, ['Equal', 'Exists']));
    }
    if (effect.length > 0) errs.push(...taintEffectErrors(effect, true, child(p, 'effect')));
  });
  return errs;
}

// ---------------------------------------------------------------------------------------------
// Affinity
// ---------------------------------------------------------------------------------------------

function nodeSelectorRequirementErrors(rq: NodeSelectorRequirement, allowInvalidValues: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const values = rq.values ?? [];
  switch (rq.operator) {
    case 'In':
    case 'NotIn':
      if (values.length === 0) errs.push(fieldError.required(child(path, 'values'), "must be specified when `operator` is 'In' or 'NotIn'"));
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (values.length > 0) errs.push(fieldError.forbidden(child(path, 'values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
      break;
    case 'Gt':
    case 'Lt':
      if (values.length !== 1) errs.push(fieldError.required(child(path, 'values'), "must be specified single value when `operator` is 'Lt' or 'Gt'"));
      break;
    default:
      errs.push(fieldError.invalid(child(path, 'operator'), rq.operator, 'not a valid selector operator'));
  }
  errs.push(...validateLabelName(rq.key, child(path, 'key')));
  if (!allowInvalidValues) {
    values.forEach((v, i) => {
      for (const msg of isValidLabelValue(v)) errs.push(fieldError.invalid(index(child(path, 'values'), i), v, msg));
    });
  }
  return errs;
}

function nodeFieldSelectorRequirementErrors(rq: NodeSelectorRequirement, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (rq.operator === 'In' || rq.operator === 'NotIn') {
    if ((rq.values ?? []).length !== 1)
      errs.push(fieldError.required(child(path, 'values'), "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"));
  } else {
    errs.push(fieldError.invalid(child(path, 'operator'), rq.operator, 'not a valid selector operator'));
  }
  if (rq.key !== 'metadata.name') errs.push(fieldError.invalid(child(path, 'key'), rq.key, 'not a valid field selector key'));
  else {
    (rq.values ?? []).forEach((v, i) => {
      for (const msg of isDNS1123Subdomain(v)) errs.push(fieldError.invalid(index(child(path, 'values'), i), v, msg));
    });
  }
  return errs;
}

function nodeSelectorTermErrors(term: NodeSelectorTerm, allowInvalidValues: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  (term.matchExpressions ?? []).forEach((rq, j) =>
    errs.push(...nodeSelectorRequirementErrors(rq, allowInvalidValues, index(child(path, 'matchExpressions'), j))),
  );
  (term.matchFields ?? []).forEach((rq, j) => errs.push(...nodeFieldSelectorRequirementErrors(rq, index(child(path, 'matchFields'), j))));
  return errs;
}

/** `validateLabelKeys` and the duplicate checks of `ValidateMatchLabelKeysAndMismatchLabelKeys`. */
function matchLabelKeysErrors(path: string, match: string[] | undefined, mismatch: string[] | undefined, selector: LabelSelector | undefined): FieldError[] {
  const errs: FieldError[] = [];
  for (const [name, keys] of [
    ['matchLabelKeys', match ?? []],
    ['mismatchLabelKeys', mismatch ?? []],
  ] as const) {
    if (keys.length === 0) continue;
    if (!selector) {
      errs.push(fieldError.forbidden(child(path, name), 'must not be specified when labelSelector is not set'));
      continue;
    }
    keys.forEach((k, i) => errs.push(...validateLabelName(k, index(child(path, name), i))));
  }
  if (selector) {
    const keyIndex = new Map((match ?? []).map((k, i) => [k, i]));
    const selectorKeys = new Set(Object.keys(selector.matchLabels ?? {}));
    for (const expr of selector.matchExpressions ?? []) {
      const i = keyIndex.get(expr.key);
      // Kubernetes reports this at `path[i]` (sic): the term's path indexed by the key's position.
      if (i !== undefined && selectorKeys.has(expr.key))
        errs.push(fieldError.invalid(index(path, i), expr.key, 'exists in both matchLabelKeys and labelSelector'));
      selectorKeys.add(expr.key);
    }
  }
  const mismatchSet = new Set(mismatch ?? []);
  (match ?? []).forEach((k, i) => {
    if (mismatchSet.has(k)) errs.push(fieldError.invalid(index(child(path, 'matchLabelKeys'), i), k, 'exists in both matchLabelKeys and mismatchLabelKeys'));
  });
  return errs;
}

function podAffinityTermErrors(term: PodAffinityTerm, path: string): FieldError[] {
  const errs = [
    ...validateLabelSelector(term.labelSelector, child(path, 'labelSelector')),
    ...validateLabelSelector(term.namespaceSelector, child(path, 'namespaceSelector')),
  ];
  for (const name of term.namespaces ?? []) {
    for (const msg of validateNamespaceName(name, false)) errs.push(fieldError.invalid(child(path, 'namespace'), name, msg));
  }
  errs.push(...matchLabelKeysErrors(path, term.matchLabelKeys, term.mismatchLabelKeys, term.labelSelector));
  if (!term.topologyKey) errs.push(fieldError.required(child(path, 'topologyKey'), 'can not be empty'));
  errs.push(...validateLabelName(term.topologyKey, child(path, 'topologyKey')));
  return errs;
}

function weightedTermsErrors(terms: WeightedPodAffinityTerm[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  terms.forEach((t, j) => {
    if (t.weight <= 0 || t.weight > 100) errs.push(fieldError.invalid(child(index(path, j), 'weight'), t.weight, 'must be in the range 1-100'));
    errs.push(...podAffinityTermErrors(t.podAffinityTerm, child(index(path, j), 'podAffinityTerm')));
  });
  return errs;
}

/** `validateAffinity`. */
export function affinityErrors(spec: PodSpec, path: string): FieldError[] {
  const affinity = spec.affinity;
  if (!affinity) return [];
  const errs: FieldError[] = [];
  const na = affinity.nodeAffinity;
  if (na) {
    const np = child(path, 'nodeAffinity');
    const required = na.requiredDuringSchedulingIgnoredDuringExecution;
    if (required) {
      const tp = child(child(np, 'requiredDuringSchedulingIgnoredDuringExecution'), 'nodeSelectorTerms');
      if (required.nodeSelectorTerms.length === 0) errs.push(fieldError.required(tp, 'must have at least one node selector term'));
      required.nodeSelectorTerms.forEach((term, i) => errs.push(...nodeSelectorTermErrors(term, false, index(tp, i))));
    }
    (na.preferredDuringSchedulingIgnoredDuringExecution ?? []).forEach((term, i) => {
      const tp = index(child(np, 'preferredDuringSchedulingIgnoredDuringExecution'), i);
      if (term.weight <= 0 || term.weight > 100) errs.push(fieldError.invalid(child(tp, 'weight'), term.weight, 'must be in the range 1-100'));
      errs.push(...nodeSelectorTermErrors(term.preference, true, child(tp, 'preference')));
    });
  }
  for (const [name, a] of [
    ['podAffinity', affinity.podAffinity],
    ['podAntiAffinity', affinity.podAntiAffinity],
  ] as const) {
    if (!a) continue;
    const ap = child(path, name);
    (a.requiredDuringSchedulingIgnoredDuringExecution ?? []).forEach((term, i) => {
      errs.push(...podAffinityTermErrors(term, index(child(ap, 'requiredDuringSchedulingIgnoredDuringExecution'), i)));
    });
    errs.push(...weightedTermsErrors(a.preferredDuringSchedulingIgnoredDuringExecution ?? [], child(ap, 'preferredDuringSchedulingIgnoredDuringExecution')));
  }
  return errs;
}

/** `validateTopologySpreadConstraints`. */
export function topologySpreadErrors(spec: PodSpec, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const constraints = spec.topologySpreadConstraints ?? [];
  constraints.forEach((c, i) => {
    const p = index(path, i);
    errs.push(...positiveFieldErrors(c.maxSkew, child(p, 'maxSkew')));
    if (!c.topologyKey) errs.push(fieldError.required(child(p, 'topologyKey'), 'can not be empty'));
    if (c.whenUnsatisfiable !== 'DoNotSchedule' && c.whenUnsatisfiable !== 'ScheduleAnyway') {
      errs.push(fieldError.notSupported(child(p, 'whenUnsatisfiable'), c.whenUnsatisfiable, ['DoNotSchedule', 'ScheduleAnyway']));
    }
    if (constraints.slice(i + 1).some((o) => o.topologyKey === c.topologyKey && o.whenUnsatisfiable === c.whenUnsatisfiable)) {
      errs.push(fieldError.duplicate(child(p, '{topologyKey, whenUnsatisfiable}'), `{${c.topologyKey}, ${c.whenUnsatisfiable}}`));
    }
    if (c.minDomains !== undefined) {
      errs.push(...positiveFieldErrors(c.minDomains, child(p, 'minDomains')));
      if (c.whenUnsatisfiable !== 'DoNotSchedule') {
        errs.push(
          fieldError.invalid(child(p, 'minDomains'), c.minDomains, `can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ${c.whenUnsatisfiable}`),
        );
      }
    }
    for (const f of ['nodeAffinityPolicy', 'nodeTaintsPolicy'] as const) {
      const policy = c[f];
      if (policy !== undefined && policy !== 'Honor' && policy !== 'Ignore') errs.push(fieldError.notSupported(child(p, f), policy, ['Honor', 'Ignore']));
    }
    errs.push(...matchLabelKeysErrors(p, c.matchLabelKeys, undefined, c.labelSelector));
    errs.push(...validateLabelSelector(c.labelSelector, child(p, 'labelSelector')));
  });
  return errs;
}

/** `^_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?(\._?[a-z0-9]([-_a-z0-9]*[a-z0-9])?)*$`, scanned in linear time. */
function isSubdomainWithUnderscore(value: string): boolean {
  const alnum = (c: string | undefined) => c !== undefined && ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'));
  return value.split('.').every((label) => {
    const l = label.startsWith('_') ? label.slice(1) : label;
    if (!alnum(l[0]) || !alnum(l[l.length - 1])) return false;
    for (let i = 1; i < l.length - 1; i++) if (!alnum(l[i]) && l[i] !== '-' && l[i] !== '_') return false;
    return true;
  });
}

/** `validatePodDNSConfig`. */
export function dnsConfigErrors(spec: PodSpec, path: string): FieldError[] {
  const config = spec.dnsConfig;
  if (spec.dnsPolicy === 'None') {
    if (!config) return [fieldError.required(path, 'must provide `dnsConfig` when `dnsPolicy` is None')];
    if (!config.nameservers?.length)
      return [fieldError.required(child(path, 'nameservers'), 'must provide at least one DNS nameserver when `dnsPolicy` is None')];
  }
  if (!config) return [];
  const errs: FieldError[] = [];
  const nameservers = config.nameservers ?? [];
  if (nameservers.length > 3) errs.push(fieldError.invalid(child(path, 'nameservers'), nameservers, 'must not have more than 3 nameservers'));
  nameservers.forEach((ns, i) => errs.push(...legacyIPErrors(ns, index(child(path, 'nameservers'), i))));
  const searches = config.searches ?? [];
  if (searches.length > 32) errs.push(fieldError.invalid(child(path, 'searches'), searches, 'must not have more than 32 search paths'));
  if (Buffer.byteLength(searches.join(' '), 'utf8') > 2048) {
    errs.push(fieldError.invalid(child(path, 'searches'), searches, 'must not have more than 2048 characters (including spaces) in the search list'));
  }
  searches.forEach((search, i) => {
    if (search === '.') return;
    const s = search.endsWith('.') ? search.slice(0, -1) : search;
    const p = index(child(path, 'searches'), i);
    if (Buffer.byteLength(s, 'utf8') > 253) errs.push(fieldError.invalid(p, s, 'must be no more than 253 characters'));
    if (!isSubdomainWithUnderscore(s)) {
      errs.push(
        fieldError.invalid(
          p,
          s,
          regexError(
            "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '_', '-' or '.', and must start and end with an alphanumeric character",
            '_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?(\\._?[a-z0-9]([-_a-z0-9]*[a-z0-9])?)*',
            'example.com',
          ),
        ),
      );
    }
  });
  (config.options ?? []).forEach((option, i) => {
    if (!option.name) errs.push(fieldError.required(index(child(path, 'options'), i), 'must not be empty'));
  });
  return errs;
}

/** `ValidateHostAliases`. */
export function hostAliasErrors(spec: PodSpec, path: string): FieldError[] {
  const errs: FieldError[] = [];
  (spec.hostAliases ?? []).forEach((alias, i) => {
    errs.push(...legacyIPErrors(alias.ip, child(index(path, i), 'ip')));
    (alias.hostnames ?? []).forEach((h, j) => errs.push(...dns1123SubdomainErrors(h, index(child(index(path, i), 'hostnames'), j))));
  });
  return errs;
}

/** `validateImagePullSecrets`: only `name` may be set. */
export function imagePullSecretErrors(spec: PodSpec, path: string): FieldError[] {
  const errs: FieldError[] = [];
  (spec.imagePullSecrets ?? []).forEach((ref, i) => {
    if (Object.keys(ref).some((k) => k !== 'name')) errs.push(fieldError.invalid(index(path, i), ref, 'only name may be set'));
  });
  return errs;
}

/** `validateReadinessGates` and `validateSchedulingGates`. */
export function gateErrors(spec: PodSpec, path: string): FieldError[] {
  const errs: FieldError[] = [];
  (spec.readinessGates ?? []).forEach((g, i) =>
    errs.push(...qualifiedNameErrors(g.conditionType, child(index(child(path, 'readinessGates'), i), 'conditionType'))),
  );
  const seen = new Set<string>();
  (spec.schedulingGates ?? []).forEach((g, i) => {
    const p = index(child(path, 'schedulingGates'), i);
    errs.push(...qualifiedNameErrors(g.name, p));
    if (seen.has(g.name)) errs.push(fieldError.duplicate(p, g.name));
    seen.add(g.name);
  });
  return errs;
}
