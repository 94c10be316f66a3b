/**
 * What the apps workloads (Deployment, ReplicaSet, DaemonSet) share: the selector that may not
 * change, the create warning about names, the `kubectl get` cells of `pkg/printers/internalversion/printers.go`.
 */
import { fieldError, type FieldError } from '../../machinery/field-errors.js';
import { FIELD_IMMUTABLE_ERROR_MSG } from '../../schema/validation/immutable-fields.js';
import { isDNS1123Label } from '../../schema/validation/names.js';
import type { StructuralNode } from '../../schema/structural.js';
import { compareGoStrings, labelSelectorFromObject, SelectorParseError, type LabelSelectorObject } from '../../selectors/label-selector.js';
import type { PodTemplateSpec } from '../types/core-v1.js';
import type { LabelSelector } from '../types/meta-v1.js';
import { semanticEqual } from '../shared/semantic-equal.js';

/** A `metav1.LabelSelector` as Go's `json.Marshal` writes it: fields in struct order, map keys sorted, empty ones omitted. */
export function goLabelSelector(sel: LabelSelector | null | undefined): unknown {
  if (sel === null || sel === undefined) return null;
  const out: Record<string, unknown> = {};
  const keys = Object.keys(sel.matchLabels ?? {}).sort(compareGoStrings);
  if (keys.length) out.matchLabels = Object.fromEntries(keys.map((k) => [k, sel.matchLabels![k]]));
  const exprs = sel.matchExpressions ?? [];
  if (exprs.length) {
    out.matchExpressions = exprs.map((e) => {
      const r: Record<string, unknown> = { key: e.key, operator: e.operator };
      if (e.values?.length) r.values = e.values;
      return r;
    });
  }
  return out;
}

/**
 * `ValidateImmutableField(new.Spec.Selector, old.Spec.Selector, spec.selector)`: the selector of
 * an apps/v1 workload may not change (compared as `apiequality.Semantic.DeepEqual`: an empty map or
 * list is the same as an absent one).
 */
export function selectorImmutableErrors(now: LabelSelector | undefined, before: LabelSelector | undefined, node: StructuralNode | undefined): FieldError[] {
  if (semanticEqual(now ?? null, before ?? null, node)) return [];
  return [fieldError.invalid('spec.selector', goLabelSelector(now), FIELD_IMMUTABLE_ERROR_MSG)];
}

/** The create warning of a name that is no DNS label (the workload strategies' `WarningsOnCreate`). */
export function workloadNameWarnings(name: string | undefined): string[] {
  const msgs = isDNS1123Label(name ?? '');
  if (!name || msgs.length === 0) return [];
  return [`metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [${msgs.join(' ')}]`];
}

/** `layoutContainerCells`: the containers' names and images, comma-separated. */
export function containerCells(template: Readonly<PodTemplateSpec> | undefined): { names: string; images: string } {
  const containers = template?.spec?.containers ?? [];
  return { names: containers.map((c) => c.name).join(','), images: containers.map((c) => c.image ?? '').join(',') };
}

/** The selector as `LabelSelectorAsSelector(...).String()`; `<invalid>` when it does not parse (printDeployment). */
export function selectorString(sel: LabelSelector | undefined): string {
  try {
    return labelSelectorFromObject(sel as LabelSelectorObject | undefined).toString();
  } catch (e) {
    if (e instanceof SelectorParseError) return '<invalid>';
    throw e;
  }
}

/** `metav1.FormatLabelSelector`: the selector's text, `<none>` when empty, `<error>` when it does not parse. */
export function formatLabelSelector(sel: LabelSelector | undefined): string {
  let text: string;
  try {
    text = labelSelectorFromObject(sel as LabelSelectorObject | undefined).toString();
  } catch (e) {
    if (e instanceof SelectorParseError) return '<error>';
    throw e;
  }
  return text || '<none>';
}

/** `labels.FormatLabels`: `k=v` pairs sorted and comma-joined, `<none>` when empty. */
export function formatLabels(labels: Readonly<Record<string, string>> | undefined): string {
  const pairs = Object.entries(labels ?? {})
    .map(([k, v]) => `${k}=${v}`)
    .sort(compareGoStrings);
  return pairs.length ? pairs.join(',') : '<none>';
}

/** A string map as Go's `json.Marshal` writes it (keys sorted); `null` for an absent one. */
export function goStringMap(map: Readonly<Record<string, string>> | undefined): unknown {
  if (map === undefined || map === null) return null;
  const keys = Object.keys(map).sort(compareGoStrings);
  return Object.fromEntries(keys.map((k) => [k, map[k]]));
}

/** `IsDecremented` of a collision count: `status.collisionCount: Invalid value: 1: cannot be decremented`. */
export function collisionCountErrors(next: number | undefined, prev: number | undefined): FieldError[] {
  if (prev !== undefined && (next === undefined || next < prev)) return [fieldError.invalid('status.collisionCount', next ?? 0, 'cannot be decremented')];
  return [];
}
