/**
 * Which names of a CustomResourceDefinition are accepted, as apiextensions-apiserver's naming
 * controller decides (pkg/controller/status/naming_controller.go `calculateNamesAndConditions`):
 * a name another definition of the same group already holds is refused, a name the definition
 * holds already stays its own, and the conditions say why.
 */
import type { CustomResourceDefinition, CustomResourceDefinitionCondition, CustomResourceDefinitionNames } from '../../kinds/types/apiextensions-v1.js';

/** A condition without its transition time (the controller stamps that when the status changes). */
export type CrdCondition = Omit<CustomResourceDefinitionCondition, 'lastTransitionTime'>;

/** The names other definitions of a group have taken. */
export interface TakenNames {
  /** Plural, singular and short names (one namespace of resource names). */
  readonly resources: ReadonlySet<string>;
  /** Kind and list kind names. */
  readonly kinds: ReadonlySet<string>;
}

/** The names the definitions of one group (other than `self`) have been given. */
export function takenNames(definitions: readonly CustomResourceDefinition[], group: string, self: string): TakenNames {
  const resources = new Set<string>();
  const kinds = new Set<string>();
  for (const crd of definitions) {
    if (crd.spec?.group !== group || crd.metadata?.name === self) continue;
    const accepted = crd.status?.acceptedNames;
    for (const n of [accepted?.plural, accepted?.singular, ...(accepted?.shortNames ?? [])]) resources.add(n ?? '');
    kinds.add(accepted?.kind ?? '');
    kinds.add(accepted?.listKind ?? '');
  }
  return { resources, kinds };
}

/** Upstream's `equalToAcceptedOrFresh`: undefined when the name may be used, else why not. */
function conflict(requested: string, accepted: string, used: ReadonlySet<string>): string | undefined {
  if (requested === accepted || !used.has(requested)) return undefined;
  return `${JSON.stringify(requested)} is already in use`;
}

function sameList(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  // reflect.DeepEqual: nil and empty differ, as upstream compares them.
  if (a === undefined || b === undefined) return a === b;
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** The accepted names and the NamesAccepted and Established conditions a definition should carry. */
export function namesAndConditions(
  crd: CustomResourceDefinition,
  taken: TakenNames,
): { accepted: CustomResourceDefinitionNames; namesAccepted: CrdCondition; established: CrdCondition } {
  const requested = crd.spec.names;
  const current: CustomResourceDefinitionNames = crd.status?.acceptedNames ?? { plural: '', kind: '' };
  // Fields in the order Go encodes them: plural, singular, shortNames, kind, listKind, categories.
  const accepted: CustomResourceDefinitionNames = inGoOrder(current);
  let namesAccepted: CrdCondition = { type: 'NamesAccepted', status: 'Unknown' };
  const refuse = (reason: string, message: string) => (namesAccepted = { type: 'NamesAccepted', status: 'False', reason, message });

  const plural = conflict(requested.plural, current.plural, taken.resources);
  if (plural) refuse('PluralConflict', plural);
  else accepted.plural = requested.plural;
  const singular = conflict(requested.singular ?? '', current.singular ?? '', taken.resources);
  if (singular) refuse('SingularConflict', singular);
  else setOptional(accepted, 'singular', requested.singular);
  if (!sameList(requested.shortNames, current.shortNames)) {
    const own = new Set(current.shortNames ?? []);
    const errors = (requested.shortNames ?? []).filter((n) => !own.has(n)).flatMap((n) => conflict(n, '', taken.resources) ?? []);
    // utilerrors.NewAggregate: one error prints as itself, several as "[a, b]".
    if (errors.length) refuse('ShortNamesConflict', errors.length === 1 ? errors[0]! : `[${errors.join(', ')}]`);
    else setOptional(accepted, 'shortNames', requested.shortNames);
  }
  const kind = conflict(requested.kind, current.kind, taken.kinds);
  if (kind) refuse('KindConflict', kind);
  else accepted.kind = requested.kind;
  const listKind = conflict(requested.listKind ?? '', current.listKind ?? '', taken.kinds);
  if (listKind) refuse('ListKindConflict', listKind);
  else setOptional(accepted, 'listKind', requested.listKind);
  setOptional(accepted, 'categories', requested.categories);
  const ordered = inGoOrder(accepted);

  if (namesAccepted.status === 'Unknown') namesAccepted = { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' };

  // Established starts False and turns True once the names are accepted (the establishing step).
  const old = crd.status?.conditions?.find((c) => c.type === 'Established');
  let established: CrdCondition = old
    ? withoutTime(old)
    : { type: 'Established', status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' };
  if (established.status !== 'True' && namesAccepted.status === 'True') {
    established = { type: 'Established', status: 'False', reason: 'Installing', message: 'the initial names have been accepted' };
  }
  return { accepted: ordered, namesAccepted, established };
}

function inGoOrder(n: CustomResourceDefinitionNames): CustomResourceDefinitionNames {
  return {
    plural: n.plural,
    ...(n.singular !== undefined ? { singular: n.singular } : {}),
    ...(n.shortNames !== undefined ? { shortNames: n.shortNames } : {}),
    kind: n.kind,
    ...(n.listKind !== undefined ? { listKind: n.listKind } : {}),
    ...(n.categories !== undefined ? { categories: n.categories } : {}),
  };
}

function setOptional<K extends 'singular' | 'shortNames' | 'listKind' | 'categories'>(
  names: CustomResourceDefinitionNames,
  key: K,
  value: CustomResourceDefinitionNames[K] | undefined,
): void {
  if (value === undefined) delete names[key];
  else names[key] = value;
}

function withoutTime(c: CustomResourceDefinitionCondition): CrdCondition {
  const { lastTransitionTime: _t, ...rest } = c;
  return rest;
}

/** Whether two name sets are equal as Go's semantic DeepEqual sees them. */
export function sameNames(a: CustomResourceDefinitionNames | undefined, b: CustomResourceDefinitionNames | undefined): boolean {
  const x = a ?? { plural: '', kind: '' };
  const y = b ?? { plural: '', kind: '' };
  return (
    x.plural === y.plural &&
    (x.singular ?? '') === (y.singular ?? '') &&
    x.kind === y.kind &&
    (x.listKind ?? '') === (y.listKind ?? '') &&
    sameList(x.shortNames ?? [], y.shortNames ?? []) &&
    sameList(x.categories ?? [], y.categories ?? [])
  );
}
