/** CSINode (storage.k8s.io/v1, cluster-scoped). */
import { fieldError, type FieldError } from '../../machinery/field-errors.js';
import { defineKind } from '../../schema/define-kind.js';
import { immutableFieldError } from '../../schema/validation/immutable-fields.js';
import { isQualifiedName } from '../../schema/validation/names.js';
import { validateNonnegativeField } from '../../schema/validation/object-meta.js';
import { jsonEqual } from '../../util/json-equal.js';
import { CSINode as CSINodeSchema, type CSINodeDriver } from '../types/storage-v1.js';
import { validateCSIDriverName } from './validation.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** A CSINode object. */
export type CSINode = CSINodeSchema;

/** The longest node ID (`csiNodeIDLongerMaxLength`: the strategy allows long IDs). */
const MAX_NODE_ID = 256;

/** `validateCSINodeDriver` for each driver. */
function validateDrivers(node: CSINode): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  (node.spec?.drivers ?? []).forEach((driver, i) => {
    const p = `spec.drivers[${i}]`;
    errs.push(...validateCSIDriverName(driver.name, `${p}.name`));
    const nodeID = driver.nodeID ?? '';
    if (nodeID.length === 0) errs.push(fieldError.required(`${p}.nodeID`));
    if (nodeID.length > MAX_NODE_ID) errs.push(fieldError.invalid(`${p}.nodeID`, nodeID, `must be ${MAX_NODE_ID} characters or less`));
    const count = driver.allocatable?.count;
    if (count !== undefined && count !== null) errs.push(...validateNonnegativeField(count, `${p}.allocatable.count`));
    if (names.has(driver.name)) errs.push(fieldError.duplicate(`${p}.name`, driver.name));
    names.add(driver.name);
    const keys = new Set<string>();
    for (const key of driver.topologyKeys ?? []) {
      // Kubernetes reports topology key problems at the driver's path.
      if (key.length === 0) errs.push(fieldError.required(p));
      if (keys.has(key)) errs.push(fieldError.duplicate(p, key));
      keys.add(key);
      errs.push(...isQualifiedName(key).map((m) => fieldError.invalid(p, key, m)));
    }
  });
  return errs;
}

/** A driver without `allocatable` (MutableCSINodeAllocatableCount: the count may change). */
function withoutAllocatable(d: CSINodeDriver): Omit<CSINodeDriver, 'allocatable'> {
  const { allocatable: _a, ...rest } = d;
  return rest;
}

/**
 * CSINode: each driver's name, node ID, allocatable count and topology keys checked; a driver
 * already listed may change only its allocatable count.
 */
export const CSINodeKind = defineKind<CSINode>({
  group: 'storage.{api_domain}',
  kind: 'CSINode',
  plural: 'csinodes',
  scope: 'Cluster',
  generation: false,
  versions: [lazyVersion('v1', CSINodeSchema, { storage: true })],
  schemaRequired: false,
  printerColumns: [
    {
      name: 'Drivers',
      type: 'integer',
      description: 'Drivers indicates the number of CSI drivers registered on the node',
      value: (n) => (n.spec?.drivers ?? []).length,
    },
  ],
  strategy: {
    defaults(node) {
      node.spec ??= { drivers: [] };
    },
    validate: (node, ctx) => (ctx.operation === 'create' ? validateDrivers(node) : []),
    validateUpdate(node, old) {
      const errs = validateDrivers(node);
      for (const o of old.spec?.drivers ?? []) {
        for (const n of node.spec?.drivers ?? []) {
          if (o.name === n.name && !jsonEqual(withoutAllocatable(n), withoutAllocatable(o)))
            errs.push(immutableFieldError('spec.drivers', withoutAllocatable(n)));
        }
      }
      return errs;
    },
  },
});
