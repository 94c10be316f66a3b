/**
 * The warnings a custom resource's new finalizers get (pkg/registry/customresource/validator.go
 * `validateKubeFinalizerName`): a name that is not a qualified name, and an unqualified name that is
 * not one of Kubernetes' standard finalizers. Built-in kinds refuse those; custom resources warn.
 */
import { isQualifiedName } from '../../../schema/validation/names.js';
import { STANDARD_FINALIZERS } from '../../../schema/validation/object-meta.js';
import { compareGoStrings, goQuote } from '../../../util/go-format.js';

function warningsFor(name: string): string[] {
  const path = 'metadata.finalizers';
  const out = isQualifiedName(name).map((msg) => `${path}: ${goQuote(name)}: ${msg}`);
  if (!name.includes('/') && !STANDARD_FINALIZERS.has(name)) {
    out.push(
      name.includes('.')
        ? `${path}: ${goQuote(name)}: prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts with other finalizer writers`
        : `${path}: ${goQuote(name)}: prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers`,
    );
  }
  return out;
}

/** Warnings for the finalizers `finalizers` adds to `old` (all of them on create), in name order. */
export function finalizerWarnings(finalizers: readonly unknown[] | undefined, old: readonly unknown[] | undefined): string[] {
  const before = new Set(old ?? []);
  const added = [...new Set((finalizers ?? []).filter((f): f is string => typeof f === 'string' && !before.has(f)))].sort(compareGoStrings);
  return added.flatMap(warningsFor);
}
