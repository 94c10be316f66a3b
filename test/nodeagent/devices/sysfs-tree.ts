/** Builds fake sysfs trees in temp directories for the device attribute tests. */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface FakeNode {
  readonly cpus?: string;
  readonly socket?: number;
  readonly distance?: string;
}

export interface FakeDevice {
  readonly bdf: string;
  /** Written to numa_node as is; absent: no file. */
  readonly numaNode?: string;
  /** Path under devices/, e.g. `pci0000:00/0000:00:01.0/0000:01:00.0`. */
  readonly devicePath: string;
}

export class FakeSysfs {
  readonly root = mkdtempSync(join(tmpdir(), 'memkube-sysfs-'));

  write(relative: string, content: string): void {
    mkdirSync(dirname(join(this.root, relative)), { recursive: true });
    writeFileSync(join(this.root, relative), content);
  }

  link(relative: string, target: string): void {
    mkdirSync(dirname(join(this.root, relative)), { recursive: true });
    symlinkSync(target, join(this.root, relative));
  }

  node(id: number, node: FakeNode): void {
    mkdirSync(join(this.root, `devices/system/node/node${id}`), { recursive: true });
    if (node.distance !== undefined) this.write(`devices/system/node/node${id}/distance`, `${node.distance}\n`);
    if (node.cpus !== undefined) {
      this.write(`devices/system/node/node${id}/cpulist`, `${node.cpus}\n`);
      for (const cpu of expand(node.cpus)) {
        this.write(`devices/system/cpu/cpu${cpu}/topology/physical_package_id`, `${node.socket ?? 0}\n`);
        this.link(`devices/system/cpu/cpu${cpu}/node${id}`, `../../node/node${id}`);
      }
    }
  }

  /** A PCI device in devices/ with the relative bus link the kernel makes. */
  device(device: FakeDevice): void {
    const dir = `devices/${device.devicePath}`;
    mkdirSync(join(this.root, dir), { recursive: true });
    if (device.numaNode !== undefined) this.write(`${dir}/numa_node`, `${device.numaNode}\n`);
    this.link(`bus/pci/devices/${device.bdf}`, `../../../${dir}`);
  }

  remove(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}

function expand(list: string): number[] {
  return list.split(',').flatMap((r) => {
    const [a, b] = r.split('-').map(Number);
    return Array.from({ length: (b ?? a!) - a! + 1 }, (_, i) => a! + i);
  });
}

/**
 * Two sockets of four NUMA nodes each. Socket 0 (nodes 0-3) is uneven: node 3 is farther from 0;
 * node 3 sees node 4 of the other socket as close as its own neighbours. Socket 1 (4-7) is even.
 */
export const TWO_SOCKET_SLIT = [
  '10 12 12 16 32 32 32 32',
  '12 10 12 12 32 32 32 32',
  '12 12 10 12 32 32 32 32',
  '16 12 12 10 12 32 32 32',
  '32 32 32 12 10 12 12 12',
  '32 32 32 32 12 10 12 12',
  '32 32 32 32 12 12 10 12',
  '32 32 32 32 12 12 12 10',
];

export function twoSocketMachine(): FakeSysfs {
  const sysfs = new FakeSysfs();
  TWO_SOCKET_SLIT.forEach((distance, id) => sysfs.node(id, { distance, cpus: `${id * 4}-${id * 4 + 3}`, socket: id < 4 ? 0 : 1 }));
  return sysfs;
}
