import { mkfifoSync } from './mkfifo.js';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { DeviceAttributeError } from '../../../src/nodeagent/devices/attributes.js';
import { getEquidistantNUMANodes, getNUMANodeAttribute, getNUMANodeAttributeByPCIBusID, getNUMANodeForCPU } from '../../../src/nodeagent/devices/numa.js';
import { FakeSysfs, twoSocketMachine } from './sysfs-tree.js';

const LIST = { DRAListTypeAttributes: true };
let trees: FakeSysfs[] = [];
const tree = (t: FakeSysfs) => (trees.push(t), t);
afterEach(() => {
  for (const t of trees) t.remove();
  trees = [];
});
// One two-socket machine for the tests that only read it or add devices of their own bus IDs.
let shared: FakeSysfs | undefined;
const machine = () => (shared ??= twoSocketMachine());
afterAll(() => shared?.remove());

describe('getNUMANodeAttributeByPCIBusID', () => {
  it('reads the scalar node from numa_node, without needing a gate', () => {
    const sysfs = machine();
    sysfs.device({ bdf: '0000:3b:00.0', numaNode: '5', devicePath: 'pci0000:3a/0000:3a:00.0/0000:3b:00.0' });
    expect(getNUMANodeAttributeByPCIBusID('0000:3b:00.0', 'scalar', { sysfsRoot: sysfs.root })).toEqual({
      name: 'resource.kubernetes.io/numaNode',
      value: { int: 5 },
    });
    expect(getNUMANodeAttributeByPCIBusID('0000:3b:00.0', undefined, { sysfsRoot: sysfs.root }).value).toEqual({ int: 5 });
  });

  it('lists the physical node first, then same-socket nodes at the minimum SLIT distance', () => {
    const sysfs = machine();
    const cases: [string, number, number[]][] = [
      ['0000:10:00.0', 5, [5, 4, 6, 7]],
      ['0000:11:00.0', 0, [0, 1, 2]],
      ['0000:12:00.0', 3, [3, 1, 2]], // node 4 is as close but on the other socket
      ['0000:13:00.0', 7, [7, 4, 5, 6]],
    ];
    cases.forEach(([bdf, node], i) => sysfs.device({ bdf, numaNode: String(node), devicePath: `pci0000:0${i}/${bdf}` }));
    for (const [bdf, , list] of cases) {
      expect(getNUMANodeAttributeByPCIBusID(bdf, 'list', { sysfsRoot: sysfs.root, featureGates: LIST }).value).toEqual({ ints: list });
    }
  });

  it('refuses the list form unless DRAListTypeAttributes is on', () => {
    const sysfs = machine();
    sysfs.device({ bdf: '0000:14:00.0', numaNode: '5', devicePath: 'pci0000:14/0000:14:00.0' });
    for (const featureGates of [undefined, {}, { DRAListTypeAttributes: false }] as (Record<string, boolean> | undefined)[]) {
      expect(() => getNUMANodeAttributeByPCIBusID('0000:14:00.0', 'list', { sysfsRoot: sysfs.root, featureGates })).toThrow(
        'the list form of the numaNode attribute requires feature gate DRAListTypeAttributes',
      );
    }
  });

  it('gives no attribute to a device without NUMA affinity', () => {
    const sysfs = machine();
    sysfs.device({ bdf: '0000:00:1f.3', numaNode: '-1', devicePath: 'pci0000:00/0000:00:1f.3' });
    for (const form of ['scalar', 'list'] as const) {
      expect(() => getNUMANodeAttributeByPCIBusID('0000:00:1f.3', form, { sysfsRoot: sysfs.root, featureGates: LIST })).toThrow(
        new DeviceAttributeError('PCI device 0000:00:1f.3 has no NUMA affinity (numa_node=-1); do not publish the numaNode attribute for it'),
      );
    }
  });

  it('falls back to a one-element list without a readable SLIT', () => {
    const sysfs = tree(new FakeSysfs());
    sysfs.device({ bdf: '0000:01:00.0', numaNode: '0', devicePath: 'pci0000:00/0000:01:00.0' });
    expect(getNUMANodeAttributeByPCIBusID('0000:01:00.0', 'list', { sysfsRoot: sysfs.root, featureGates: LIST }).value).toEqual({ ints: [0] });
    sysfs.node(0, { distance: 'ten twelve' });
    expect(getNUMANodeAttributeByPCIBusID('0000:01:00.0', 'list', { sysfsRoot: sysfs.root, featureGates: LIST }).value).toEqual({ ints: [0] });
  });

  it.each([
    ['', 'PCI Bus ID cannot be empty'],
    ['0000:3B:00.0', 'invalid PCI Bus ID format: 0000:3B:00.0'],
    ['3b:00.0', 'invalid PCI Bus ID format: 3b:00.0'],
    ['../../../etc/x', 'invalid PCI Bus ID format: ../../../etc/x'],
  ])('validates the bus ID %j first', (bdf, message) => {
    expect(() => getNUMANodeAttributeByPCIBusID(bdf, 'scalar', { sysfsRoot: '/nonexistent' })).toThrow(new DeviceAttributeError(message));
  });

  it('explains missing, malformed, oversized, looping and non-regular numa_node files', () => {
    const sysfs = tree(new FakeSysfs());
    const root = { sysfsRoot: sysfs.root };
    const at = (bdf: string) => `bus/pci/devices/${bdf}/numa_node`;
    sysfs.device({ bdf: '0000:01:00.0', devicePath: 'pci0000:00/0000:01:00.0' });
    expect(() => getNUMANodeAttributeByPCIBusID('0000:01:00.0', 'scalar', root)).toThrow(
      `failed to read NUMA node for PCI Bus ID 0000:01:00.0: open ${at('0000:01:00.0')}: no such file or directory`,
    );
    sysfs.device({ bdf: '0000:02:00.0', numaNode: 'zero', devicePath: 'pci0000:00/0000:02:00.0' });
    expect(() => getNUMANodeAttributeByPCIBusID('0000:02:00.0', 'scalar', root)).toThrow(
      'failed to read NUMA node for PCI Bus ID 0000:02:00.0: strconv.Atoi: parsing "zero": invalid syntax',
    );
    sysfs.device({ bdf: '0000:03:00.0', numaNode: '99999999999999999999', devicePath: 'pci0000:00/0000:03:00.0' });
    expect(() => getNUMANodeAttributeByPCIBusID('0000:03:00.0', 'scalar', root)).toThrow('value out of range');
    sysfs.device({ bdf: '0000:04:00.0', numaNode: '1'.repeat(70_000), devicePath: 'pci0000:00/0000:04:00.0' });
    expect(() => getNUMANodeAttributeByPCIBusID('0000:04:00.0', 'scalar', root)).toThrow(`read ${at('0000:04:00.0')}: file is larger than 65536 bytes`);
    sysfs.link('bus/pci/devices/0000:05:00.0', '0000:05:00.0');
    expect(() => getNUMANodeAttributeByPCIBusID('0000:05:00.0', 'scalar', root)).toThrow(`open ${at('0000:05:00.0')}: too many levels of symbolic links`);
    sysfs.device({ bdf: '0000:06:00.0', devicePath: 'pci0000:00/0000:06:00.0' });
    mkfifoSync(`${sysfs.root}/devices/pci0000:00/0000:06:00.0/numa_node`);
    expect(() => getNUMANodeAttributeByPCIBusID('0000:06:00.0', 'scalar', root)).toThrow(`read ${at('0000:06:00.0')}: not a regular file`);
    sysfs.device({ bdf: '0000:07:00.0', devicePath: 'pci0000:00/0000:07:00.0' });
    sysfs.write('devices/pci0000:00/0000:07:00.0/numa_node/x', '');
    expect(() => getNUMANodeAttributeByPCIBusID('0000:07:00.0', 'scalar', root)).toThrow(`read ${at('0000:07:00.0')}: is a directory`);
  });
});

describe('getNUMANodeAttribute', () => {
  it('makes a scalar without reading sysfs and a list from the SLIT', () => {
    expect(getNUMANodeAttribute(3, 'scalar', { sysfsRoot: '/nonexistent' })).toEqual({ name: 'resource.kubernetes.io/numaNode', value: { int: 3 } });
    const sysfs = machine();
    expect(getNUMANodeAttribute(6, 'list', { sysfsRoot: sysfs.root, featureGates: LIST }).value).toEqual({ ints: [6, 4, 5, 7] });
  });

  it.each([
    [-1, 'invalid NUMA node -1: do not publish the numaNode attribute for a device with no NUMA affinity'],
    [1024, 'invalid NUMA node 1024: exceeds maximum supported (1023)'],
    [1.5, 'invalid NUMA node 1.5: not an integer'],
    [Number.NaN, 'invalid NUMA node NaN: not an integer'],
  ])('refuses node %d', (node, message) => {
    expect(() => getNUMANodeAttribute(node)).toThrow(new DeviceAttributeError(message));
  });
});

describe('getEquidistantNUMANodes', () => {
  it('keeps a CPU-less memory node whose socket is unknown', () => {
    const sysfs = tree(new FakeSysfs());
    sysfs.node(0, { distance: '10 11 20', cpus: '0-1', socket: 0 });
    sysfs.node(1, { distance: '11 10 20' }); // memory only, no cpulist
    sysfs.node(2, { distance: '20 20 10', cpus: '2', socket: 1 });
    expect(getEquidistantNUMANodes(0, { sysfsRoot: sysfs.root })).toEqual([0, 1]);
  });

  it('keeps same-distance nodes of any socket when the own socket is unknown', () => {
    const sysfs = tree(new FakeSysfs());
    sysfs.node(0, { distance: '10 21 21' });
    sysfs.write('devices/system/node/node0/cpulist', '0-4294967295'); // no physical_package_id for cpu0
    sysfs.node(1, { distance: '21 10 21', cpus: '1', socket: 1 });
    sysfs.node(2, { distance: '21 21 10', cpus: '2', socket: 2 });
    expect(getEquidistantNUMANodes(0, { sysfsRoot: sysfs.root })).toEqual([0, 1, 2]);
  });

  it('a single-node machine is just that node', () => {
    const sysfs = tree(new FakeSysfs());
    sysfs.node(0, { distance: '10', cpus: '0-7' });
    expect(getEquidistantNUMANodes(0, { sysfsRoot: sysfs.root })).toEqual([0]);
  });

  it.each([
    ['', 'empty distance file for NUMA node 1'],
    ['10', 'NUMA node 1 out of range for distance table with 1 entries'],
    ['10 x 20', 'failed to parse distance value "x" for NUMA node 1: strconv.Atoi: parsing "x": invalid syntax'],
  ])('refuses the distance row %j', (distance, message) => {
    const sysfs = tree(new FakeSysfs());
    sysfs.node(1, { distance });
    expect(() => getEquidistantNUMANodes(1, { sysfsRoot: sysfs.root })).toThrow(new DeviceAttributeError(message));
  });
});

describe('getNUMANodeForCPU', () => {
  it('reads the node entry of the CPU directory', () => {
    const sysfs = machine();
    expect(getNUMANodeForCPU(0, { sysfsRoot: sysfs.root })).toBe(0);
    expect(getNUMANodeForCPU(21, { sysfsRoot: sysfs.root })).toBe(5);
    expect(getNUMANodeForCPU(31, { sysfsRoot: sysfs.root })).toBe(7);
  });

  it('explains a missing CPU, a CPU without node and a bad node entry', () => {
    const sysfs = machine();
    const root = { sysfsRoot: sysfs.root };
    expect(() => getNUMANodeForCPU(99, root)).toThrow(new DeviceAttributeError('CPU 99 not found in any NUMA node'));
    expect(() => getNUMANodeForCPU(-1, root)).toThrow(new DeviceAttributeError('CPU -1 not found in any NUMA node'));
    sysfs.write('devices/system/cpu/cpu40/topology/physical_package_id', '0');
    expect(() => getNUMANodeForCPU(40, root)).toThrow(new DeviceAttributeError('CPU 40 not found in any NUMA node'));
    sysfs.write('devices/system/cpu/cpu41/node1x', '');
    expect(() => getNUMANodeForCPU(41, root)).toThrow(
      new DeviceAttributeError('failed to parse NUMA node number from node1x: strconv.Atoi: parsing "1x": invalid syntax'),
    );
  });
});
