/**
 * Go's `%#v` of the internal flowcontrol structs, as Kubernetes prints a whole spec or struct as
 * the bad value of a field error (`spec: Invalid value: flowcontrol.FlowSchemaSpec{...}`). A
 * pointer inside a struct prints as its address in Go; memkube prints a fixed address, since the
 * real one differs from process to process.
 */
import { goQuote } from '../../util/go-format.js';

type GoType =
  | { readonly kind: 'string' | 'int32' | 'bool' }
  | { readonly kind: 'struct'; readonly name: string; readonly fields: readonly (readonly [goName: string, jsonName: string, type: GoType])[] }
  | { readonly kind: 'pointer'; readonly to: GoType }
  | { readonly kind: 'slice'; readonly of: GoType };

const ADDRESS = '0xc000000000';
const str: GoType = { kind: 'string' };
const int32: GoType = { kind: 'int32' };
const bool: GoType = { kind: 'bool' };
const slice = (of: GoType): GoType => ({ kind: 'slice', of });
const ptr = (to: GoType): GoType => ({ kind: 'pointer', to });
const struct = (name: string, ...fields: [string, string, GoType][]): GoType => ({ kind: 'struct', name: `flowcontrol.${name}`, fields });

function typeName(t: GoType): string {
  switch (t.kind) {
    case 'struct':
      return t.name;
    case 'pointer':
      return `*${typeName(t.to)}`;
    case 'slice':
      return `[]${typeName(t.of)}`;
    default:
      return t.kind;
  }
}

/** `%#v` of `value` (a decoded JSON value, absent fields as Go's zero values) as the Go type `t`. */
function goSyntax(value: unknown, t: GoType): string {
  switch (t.kind) {
    case 'string':
      return goQuote(typeof value === 'string' ? value : '');
    case 'int32':
      return String(typeof value === 'number' ? value : 0);
    case 'bool':
      return String(value === true);
    case 'pointer':
      return value === undefined || value === null ? `(${typeName(t)})(nil)` : `(${typeName(t)})(${ADDRESS})`;
    case 'slice':
      if (!Array.isArray(value)) return `${typeName(t)}(nil)`;
      return `${typeName(t)}{${value.map((v) => goSyntax(v, t.of)).join(', ')}}`;
    case 'struct': {
      const obj = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
      return `${t.name}{${t.fields.map(([goName, jsonName, ft]) => `${goName}:${goSyntax(obj[jsonName], ft)}`).join(', ')}}`;
    }
  }
}

const FlowDistinguisherMethod = struct('FlowDistinguisherMethod', ['Type', 'type', str]);
const Subject = struct(
  'Subject',
  ['Kind', 'kind', str],
  ['User', 'user', ptr(struct('UserSubject', ['Name', 'name', str]))],
  ['Group', 'group', ptr(struct('GroupSubject', ['Name', 'name', str]))],
  ['ServiceAccount', 'serviceAccount', ptr(struct('ServiceAccountSubject', ['Namespace', 'namespace', str], ['Name', 'name', str]))],
);
const ResourcePolicyRule = struct(
  'ResourcePolicyRule',
  ['Verbs', 'verbs', slice(str)],
  ['APIGroups', 'apiGroups', slice(str)],
  ['Resources', 'resources', slice(str)],
  ['ClusterScope', 'clusterScope', bool],
  ['Namespaces', 'namespaces', slice(str)],
);
const NonResourcePolicyRule = struct('NonResourcePolicyRule', ['Verbs', 'verbs', slice(str)], ['NonResourceURLs', 'nonResourceURLs', slice(str)]);
const FlowSchemaSpec = struct(
  'FlowSchemaSpec',
  ['PriorityLevelConfiguration', 'priorityLevelConfiguration', struct('PriorityLevelConfigurationReference', ['Name', 'name', str])],
  ['MatchingPrecedence', 'matchingPrecedence', int32],
  ['DistinguisherMethod', 'distinguisherMethod', ptr(FlowDistinguisherMethod)],
  [
    'Rules',
    'rules',
    slice(
      struct(
        'PolicyRulesWithSubjects',
        ['Subjects', 'subjects', slice(Subject)],
        ['ResourceRules', 'resourceRules', slice(ResourcePolicyRule)],
        ['NonResourceRules', 'nonResourceRules', slice(NonResourcePolicyRule)],
      ),
    ),
  ],
);
const PriorityLevelConfigurationSpec = struct(
  'PriorityLevelConfigurationSpec',
  ['Type', 'type', str],
  [
    'Limited',
    'limited',
    ptr(
      struct(
        'LimitedPriorityLevelConfiguration',
        ['NominalConcurrencyShares', 'nominalConcurrencyShares', int32],
        [
          'LimitResponse',
          'limitResponse',
          struct(
            'LimitResponse',
            ['Type', 'type', str],
            [
              'Queuing',
              'queuing',
              ptr(
                struct('QueuingConfiguration', ['Queues', 'queues', int32], ['HandSize', 'handSize', int32], ['QueueLengthLimit', 'queueLengthLimit', int32]),
              ),
            ],
          ),
        ],
        ['LendablePercent', 'lendablePercent', ptr(int32)],
        ['BorrowingLimitPercent', 'borrowingLimitPercent', ptr(int32)],
      ),
    ),
  ],
  [
    'Exempt',
    'exempt',
    ptr(
      struct(
        'ExemptPriorityLevelConfiguration',
        ['NominalConcurrencyShares', 'nominalConcurrencyShares', ptr(int32)],
        ['LendablePercent', 'lendablePercent', ptr(int32)],
      ),
    ),
  ],
);

/** `%#v` of a FlowSchema spec. */
export const goFlowSchemaSpec = (spec: unknown): string => goSyntax(spec, FlowSchemaSpec);
/** `%#v` of a PriorityLevelConfiguration spec. */
export const goPriorityLevelSpec = (spec: unknown): string => goSyntax(spec, PriorityLevelConfigurationSpec);
/** `%#v` of a distinguisher method. */
export const goDistinguisherMethod = (dm: unknown): string => goSyntax(dm, FlowDistinguisherMethod);
