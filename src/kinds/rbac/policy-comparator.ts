/**
 * Whether one set of RBAC rules covers another, and how the rules it misses are shown
 * (k8s.io/component-helpers `auth/rbac/validation/policy_comparator.go` Covers and BreakdownRule;
 * `pkg/registry/rbac/validation/policy_compact.go` CompactRules; `pkg/apis/rbac/v1` CompactString).
 */
import { goQuote } from '../../util/go-format.js';
import type { PolicyRule } from '../types/rbac-v1.js';

/** A rule as the comparator reads it (every list may be absent). */
export type Rule = Readonly<PolicyRule>;

const ALL = '*';

/**
 * `BreakdownRule`: the rule as rules of one verb, one group, one resource and at most one name
 * each (and one verb with one URL each). Calls `visit` for each and stops when it answers false.
 */
export function forEachAtomicRule(rule: Rule, visit: (atom: PolicyRule) => boolean): boolean {
  const names = rule.resourceNames ?? [];
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      for (const verb of rule.verbs ?? []) {
        if (names.length > 0) {
          for (const name of names) if (!visit({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [name] })) return false;
        } else if (!visit({ apiGroups: [group], resources: [resource], verbs: [verb] })) return false;
      }
    }
  }
  for (const url of rule.nonResourceURLs ?? []) {
    for (const verb of rule.verbs ?? []) if (!visit({ nonResourceURLs: [url], verbs: [verb] })) return false;
  }
  return true;
}

/** `BreakdownRule` as a list. */
export function breakdownRule(rule: Rule): PolicyRule[] {
  const atoms: PolicyRule[] = [];
  forEachAtomicRule(rule, (atom) => (atoms.push(atom), true));
  return atoms;
}

function hasAll(set: readonly string[] | undefined, wanted: readonly string[] | undefined): boolean {
  if (!wanted?.length) return true;
  // Atomic rules want one value: a scan beats building a set.
  const owned = set ?? [];
  return wanted.every((w) => owned.includes(w));
}

/** `resourceCoversAll`: `*`, every resource exactly, or `*\/<subresource>` for a subresource. */
function resourceCoversAll(owned: readonly string[] | undefined, wanted: readonly string[] | undefined): boolean {
  const set = owned ?? [];
  if (set.includes(ALL) || hasAll(set, wanted)) return true;
  for (const path of wanted ?? []) {
    if (set.includes(path)) continue;
    const slash = path.indexOf('/');
    if (slash < 0) return false;
    if (!set.includes(`*/${path.slice(slash + 1)}`)) return false;
  }
  return true;
}

/** Go's `strings.TrimRight(s, "*")`. */
function trimStars(s: string): string {
  let end = s.length;
  while (end > 0 && s.charCodeAt(end - 1) === 0x2a) end--;
  return s.slice(0, end);
}

function nonResourceURLCovers(owner: string, path: string): boolean {
  return owner === path || (owner.endsWith('*') && path.startsWith(trimStars(owner)));
}

/** `ruleCovers`: the owner rule covers an atomic rule. */
export function ruleCovers(owner: Rule, atom: Rule): boolean {
  const verbs = (owner.verbs ?? []).includes(ALL) || hasAll(owner.verbs, atom.verbs);
  const groups = (owner.apiGroups ?? []).includes(ALL) || hasAll(owner.apiGroups, atom.apiGroups);
  const resources = resourceCoversAll(owner.resources, atom.resources);
  const urls = (atom.nonResourceURLs ?? []).every((path) => (owner.nonResourceURLs ?? []).some((o) => nonResourceURLCovers(o, path)));
  const ownerNames = owner.resourceNames ?? [];
  const names = atom.resourceNames?.length ? ownerNames.length === 0 || hasAll(ownerNames, atom.resourceNames) : ownerNames.length === 0;
  return verbs && groups && resources && names && urls;
}

/**
 * How many atomic rules {@link covers} checks at most. A rule is the product of its lists; past
 * this the comparison stops and reports the atomic rules it found missing so far (plus one
 * explaining line), so that a hostile rule cannot keep the server busy.
 */
export const MAX_ATOMIC_RULES = 100_000;

/** `Covers`: whether the owner's rules cover every servant rule, and the atomic rules they miss. */
export function covers(owner: readonly Rule[], servant: readonly Rule[]): { covered: boolean; missing: PolicyRule[]; truncated: boolean } {
  const missing: PolicyRule[] = [];
  let checked = 0;
  let truncated = false;
  for (const rule of servant) {
    const finished = forEachAtomicRule(rule, (atom) => {
      if (++checked > MAX_ATOMIC_RULES) return false;
      if (!owner.some((o) => ruleCovers(o, atom))) missing.push(atom);
      return true;
    });
    if (!finished) {
      truncated = true;
      break;
    }
  }
  return { covered: missing.length === 0 && !truncated, missing, truncated };
}

/**
 * `CompactRules`: atomic rules of one group and resource (and at most one name) that differ only
 * by verb become one rule with those verbs; other rules stay as they are, before them.
 */
export function compactRules(rules: readonly Rule[]): PolicyRule[] {
  const compacted: PolicyRule[] = [];
  const simple = new Map<string, PolicyRule>();
  for (const rule of rules) {
    const key = simpleResourceKey(rule);
    if (key === undefined) {
      compacted.push(rule as PolicyRule);
      continue;
    }
    const existing = simple.get(key);
    if (existing) existing.verbs = [...existing.verbs, ...(rule.verbs ?? [])];
    else simple.set(key, cloneRule(rule));
  }
  return [...compacted, ...simple.values()];
}

function cloneRule(rule: Rule): PolicyRule {
  const copy: PolicyRule = { verbs: [...(rule.verbs ?? [])] };
  if (rule.apiGroups) copy.apiGroups = [...rule.apiGroups];
  if (rule.resources) copy.resources = [...rule.resources];
  if (rule.resourceNames) copy.resourceNames = [...rule.resourceNames];
  if (rule.nonResourceURLs) copy.nonResourceURLs = [...rule.nonResourceURLs];
  return copy;
}

/** `isSimpleResourceRule`: one group, one resource, at most one name, no URLs; its key. */
function simpleResourceKey(rule: Rule): string | undefined {
  const names = rule.resourceNames ?? [];
  if (names.length > 1 || rule.nonResourceURLs !== undefined) return undefined;
  if (rule.apiGroups?.length !== 1 || rule.resources?.length !== 1) return undefined;
  return JSON.stringify([rule.apiGroups[0], rule.resources[0], names.length > 0, names[0] ?? '']);
}

/** Go's `%q` of a `[]string`: `["a" "b"]`. */
export function goQuoteList(list: readonly string[]): string {
  return `[${list.map(goQuote).join(' ')}]`;
}

/** `CompactString`: `{APIGroups:[""], Resources:["pods"], Verbs:["get"]}`, naming only the lists a rule has. */
export function compactString(rule: Rule): string {
  const parts: string[] = [];
  if (rule.apiGroups?.length) parts.push(`APIGroups:${goQuoteList(rule.apiGroups)}`);
  if (rule.resources?.length) parts.push(`Resources:${goQuoteList(rule.resources)}`);
  if (rule.nonResourceURLs?.length) parts.push(`NonResourceURLs:${goQuoteList(rule.nonResourceURLs)}`);
  if (rule.resourceNames?.length) parts.push(`ResourceNames:${goQuoteList(rule.resourceNames)}`);
  if (rule.verbs?.length) parts.push(`Verbs:${goQuoteList(rule.verbs)}`);
  return `{${parts.join(', ')}}`;
}
