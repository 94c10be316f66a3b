/**
 * The `numaNode` device attribute (deviceattribute/numa_linux.go). The scalar form is the device's
 * physical NUMA node from `/sys/bus/pci/devices/<bdf>/numa_node`. The list form adds the nodes of
 * the same socket at the smallest ACPI SLIT distance (`/sys/devices/system/node/nodeN/distance`),
 * so devices on neighbouring nodes of one socket match under `matchAttribute`'s set intersection;
 * a node's socket is the `physical_package_id` of one of its CPUs (`nodeN/cpulist`).
 * A device without NUMA affinity (`numa_node` = -1) gets no attribute: the helpers throw.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  DeviceAttributeError,
  NUMA_NODE_ATTRIBUTE,
  sysfsRootOf,
  type DeviceAttribute,
  type DeviceAttributeOptions,
  type NUMANodeAttributeForm,
} from './attributes.js';
import { smallestCPU } from './cpulist.js';
import { verifyPCIBusID } from './pci.js';
import { goAtoi, pathErrorText, readSysfsFile, readSysfsInt } from './sysfs.js';

/**
 * NUMA node IDs are below this (Linux `MAX_NUMNODES` with `CONFIG_NODES_SHIFT` at most 10).
 * @category Node agent
 */
export const MAX_NUMA_NODES = 1024;

/**
 * A `numaNode` attribute, scalar or list.
 * @category Node agent
 */
export type NUMANodeAttribute = DeviceAttribute<{ int: number } | { ints: readonly number[] }>;

/**
 * The `numaNode` attribute of the PCI device `pciBusID` (`GetNUMANodeAttributeByPCIBusID`).
 * Throws for a malformed address, an unreadable `numa_node`, a device with no NUMA affinity, and
 * the list form without feature gate DRAListTypeAttributes.
 * @category Node agent
 */
export function getNUMANodeAttributeByPCIBusID(pciBusID: string, form: NUMANodeAttributeForm = 'scalar', options?: DeviceAttributeOptions): NUMANodeAttribute {
  requireGateFor(form, options);
  verifyPCIBusID(pciBusID);
  const root = sysfsRootOf(options);
  let node: number;
  try {
    node = readSysfsInt(root, join('bus', 'pci', 'devices', pciBusID, 'numa_node'));
  } catch (e) {
    throw new DeviceAttributeError(`failed to read NUMA node for PCI Bus ID ${pciBusID}: ${(e as Error).message}`);
  }
  if (node < 0) {
    throw new DeviceAttributeError(`PCI device ${pciBusID} has no NUMA affinity (numa_node=${node}); do not publish the numaNode attribute for it`);
  }
  return form === 'list' ? listAttribute(root, node) : scalarAttribute(node);
}

/**
 * The `numaNode` attribute of a device that knows its node (CPUs, memory: `GetNUMANodeAttribute`).
 * Throws for a negative node (no affinity: publish nothing), one of {@link MAX_NUMA_NODES} or more,
 * a non-integer, and the list form without feature gate DRAListTypeAttributes.
 * @category Node agent
 */
export function getNUMANodeAttribute(numaNode: number, form: NUMANodeAttributeForm = 'scalar', options?: DeviceAttributeOptions): NUMANodeAttribute {
  requireGateFor(form, options);
  if (!Number.isInteger(numaNode)) throw new DeviceAttributeError(`invalid NUMA node ${numaNode}: not an integer`);
  if (numaNode < 0) throw new DeviceAttributeError(`invalid NUMA node ${numaNode}: do not publish the numaNode attribute for a device with no NUMA affinity`);
  if (numaNode >= MAX_NUMA_NODES) throw new DeviceAttributeError(`invalid NUMA node ${numaNode}: exceeds maximum supported (${MAX_NUMA_NODES - 1})`);
  return form === 'list' ? listAttribute(sysfsRootOf(options), numaNode) : scalarAttribute(numaNode);
}

/**
 * The NUMA node of CPU `cpuID`, from the `nodeN` entry of `/sys/devices/system/cpu/cpu<id>/`
 * (`GetNUMANodeForCPU`). Throws when the CPU or its node entry is missing.
 * @category Node agent
 */
export function getNUMANodeForCPU(cpuID: number, options?: DeviceAttributeOptions): number {
  if (!Number.isSafeInteger(cpuID) || cpuID < 0) throw new DeviceAttributeError(`CPU ${cpuID} not found in any NUMA node`);
  const relative = join('devices', 'system', 'cpu', `cpu${cpuID}`);
  let entries: string[];
  try {
    entries = readdirSync(join(sysfsRootOf(options), relative));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new DeviceAttributeError(`CPU ${cpuID} not found in any NUMA node`);
    throw new DeviceAttributeError(`failed to find NUMA node for CPU ${cpuID}: ${pathErrorText('open', relative, e)}`);
  }
  // The first match of the glob `node[0-9]*`, in the sorted order Go's glob returns.
  const nodeDir = entries.filter((name) => /^node[0-9]/.test(name)).sort()[0];
  if (nodeDir === undefined) throw new DeviceAttributeError(`CPU ${cpuID} not found in any NUMA node`);
  try {
    return goAtoi(nodeDir.slice('node'.length));
  } catch (e) {
    throw new DeviceAttributeError(`failed to parse NUMA node number from ${nodeDir}: ${(e as Error).message}`);
  }
}

/**
 * The nodes at the smallest SLIT distance from `node` on its socket, `node` included, ascending
 * (`getEquidistantNUMANodes`). A candidate whose socket cannot be read (a CPU-less memory node) is
 * kept: better one node too many than a same-socket node dropped.
 * @category Node agent
 */
export function getEquidistantNUMANodes(node: number, options?: DeviceAttributeOptions): number[] {
  const root = sysfsRootOf(options);
  const text = readSysfsFile(root, join('devices', 'system', 'node', `node${node}`, 'distance'));
  const fields = text
    .trim()
    .split(/\s+/)
    .filter((f) => f !== '');
  if (fields.length === 0) throw new DeviceAttributeError(`empty distance file for NUMA node ${node}`);
  if (node >= fields.length) throw new DeviceAttributeError(`NUMA node ${node} out of range for distance table with ${fields.length} entries`);
  const distances = fields.map((f) => {
    try {
      return goAtoi(f);
    } catch (e) {
      throw new DeviceAttributeError(`failed to parse distance value ${JSON.stringify(f)} for NUMA node ${node}: ${(e as Error).message}`);
    }
  });
  let minDistance: number | undefined;
  distances.forEach((d, i) => {
    if (i !== node && (minDistance === undefined || d < minDistance)) minDistance = d;
  });
  if (minDistance === undefined) return [node];
  const socket = socketOf(root, node);
  const nodes: number[] = [];
  distances.forEach((d, i) => {
    if (i === node) nodes.push(i);
    else if (d === minDistance) {
      const candidate = socket === undefined ? undefined : socketOf(root, i);
      if (socket === undefined || candidate === undefined || candidate === socket) nodes.push(i);
    }
  });
  return nodes.sort((a, b) => a - b);
}

function socketOf(root: string, node: number): number | undefined {
  try {
    const cpu = smallestCPU(readSysfsFile(root, join('devices', 'system', 'node', `node${node}`, 'cpulist')).trim());
    if (cpu === undefined) return undefined;
    return readSysfsInt(root, join('devices', 'system', 'cpu', `cpu${cpu}`, 'topology', 'physical_package_id'));
  } catch {
    return undefined;
  }
}

function scalarAttribute(node: number): NUMANodeAttribute {
  return { name: NUMA_NODE_ATTRIBUTE, value: { int: node } };
}

/** The physical node first, then its equidistant same-socket nodes; just the node without a SLIT. */
function listAttribute(root: string, node: number): NUMANodeAttribute {
  let equidistant: number[];
  try {
    equidistant = getEquidistantNUMANodes(node, { sysfsRoot: root });
  } catch {
    equidistant = [node];
  }
  return { name: NUMA_NODE_ATTRIBUTE, value: { ints: [node, ...equidistant.filter((n) => n !== node)] } };
}

function requireGateFor(form: NUMANodeAttributeForm, options: DeviceAttributeOptions | undefined): void {
  if (form === 'list' && options?.featureGates?.DRAListTypeAttributes !== true) {
    throw new DeviceAttributeError('the list form of the numaNode attribute requires feature gate DRAListTypeAttributes');
  }
  if (form !== 'list' && form !== 'scalar') throw new DeviceAttributeError(`unknown attribute form ${JSON.stringify(form)}`);
}
