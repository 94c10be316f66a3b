/** FlowSchema (flowcontrol.apiserver v1, cluster-scoped, with `/status`). */
import { compareGoStrings } from '../../util/go-format.js';
import { defineKind, type PrinterColumn } from '../../schema/define-kind.js';
import { specGeneration } from '../shared/semantic-equal.js';
import { FlowSchema as V1 } from '../types/flowcontrol-v1.js';
import { AGE_COLUMN } from './columns.js';
import { defaultFlowSchema, validateConditions, validateFlowSchema } from './validation.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** A FlowSchema object. */
export type FlowSchema = V1;

/** The `MissingPL` column: the status of the `Dangling` condition, `?` without one. */
function missingPriorityLevel(fs: Readonly<FlowSchema>): string {
  const dangling = (fs.status?.conditions ?? []).find((c) => c.type === 'Dangling');
  return dangling ? (dangling.status ?? '') : '?';
}

const columns: PrinterColumn<FlowSchema>[] = [
  {
    name: 'PriorityLevel',
    type: 'string',
    description: '`name` is the name of the priority level configuration being referenced Required.',
    value: (fs) => fs.spec?.priorityLevelConfiguration?.name ?? '',
  },
  {
    name: 'MatchingPrecedence',
    type: 'string',
    description:
      '`matchingPrecedence` is used to choose among the FlowSchemas that match a given request. The chosen FlowSchema is among those with the numerically lowest (which we take to be logically highest) MatchingPrecedence.  Each MatchingPrecedence value must be ranged in [1,10000]. Note that if the precedence is not specified, it will be set to 1000 as default.',
    value: (fs) => fs.spec?.matchingPrecedence ?? 0,
  },
  {
    name: 'DistinguisherMethod',
    type: 'string',
    description:
      '`distinguisherMethod` defines how to compute the flow distinguisher for requests that match this schema. `nil` specifies that the distinguisher is disabled and thus will always be the empty string.',
    value: (fs) => (fs.spec?.distinguisherMethod ? (fs.spec.distinguisherMethod.type ?? '') : '<none>'),
  },
  AGE_COLUMN as PrinterColumn<FlowSchema>,
  { name: 'MissingPL', type: 'string', description: 'references a broken or non-existent PriorityLevelConfiguration', value: missingPriorityLevel },
];

/**
 * FlowSchema: `matchingPrecedence` defaults to 1000 and lies in 1..10000 (1 only for `exempt`);
 * a priority level reference; rules of subjects and resource or non-resource rules with
 * Kubernetes' checks; the mandatory `exempt` and `catch-all` keep their fixed spec. Status (the
 * `Dangling` condition in Kubernetes) changes only through `/status`. Requests are not classified:
 * memkube stores the configuration only.
 */
export const FlowSchemaKind = defineKind<FlowSchema>({
  group: 'flowcontrol.apiserver.{api_domain}',
  kind: 'FlowSchema',
  plural: 'flowschemas',
  scope: 'Cluster',
  // 1 on create, one more when the spec changes (pkg/registry/flowcontrol/flowschema/strategy.go).
  generation: specGeneration(V1),
  versions: [lazyVersion('v1', V1, { storage: true })],
  statusSubresource: true,
  schemaRequired: false,
  printerColumns: columns,
  // `kubectl get flowschemas` lists them in the order they match (pkg/printers printFlowSchemaList
  // sorts by FlowSchemaSequence: matching precedence, then name).
  tableRowOrder: (a, b) =>
    (a.spec?.matchingPrecedence ?? 0) - (b.spec?.matchingPrecedence ?? 0) || compareGoStrings(a.metadata?.name ?? '', b.metadata?.name ?? ''),
  strategy: {
    defaults: defaultFlowSchema,
    validate: (fs, ctx) => (ctx.subresource === 'status' ? validateConditions(fs.status?.conditions) : validateFlowSchema(fs)),
  },
});
