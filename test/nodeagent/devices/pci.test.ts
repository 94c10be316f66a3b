import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { DeviceAttributeError } from '../../../src/nodeagent/devices/attributes.js';
import { getPCIBusIDAttribute, getPCIeRootAttributeByPCIBusID, verifyPCIBusID } from '../../../src/nodeagent/devices/pci.js';
import { FakeSysfs } from './sysfs-tree.js';

let sysfs: FakeSysfs;
afterEach(() => sysfs?.remove());

describe('getPCIBusIDAttribute', () => {
  it('publishes a valid extended BDF address', () => {
    expect(getPCIBusIDAttribute('0123:45:1e.7')).toEqual({ name: 'resource.kubernetes.io/pciBusID', value: { string: '0123:45:1e.7' } });
  });

  it.each([
    ['', 'PCI Bus ID cannot be empty'],
    ['45:1e.7', 'invalid PCI Bus ID format: 45:1e.7'],
    ['0123:45:1E.7', 'invalid PCI Bus ID format: 0123:45:1E.7'],
    ['0123:45:1e.g', 'invalid PCI Bus ID format: 0123:45:1e.g'],
    ['0123:45:1e.7\n', 'invalid PCI Bus ID format: 0123:45:1e.7\n'],
    ['00123:45:1e.7', 'invalid PCI Bus ID format: 00123:45:1e.7'],
  ])('refuses %j', (bdf, message) => {
    expect(() => getPCIBusIDAttribute(bdf)).toThrow(new DeviceAttributeError(message));
  });

  it('accepts exactly the DDDD:BB:DD.F lower-case hex strings', () => {
    const hex = (n: number) => fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: n, maxLength: n });
    fc.assert(fc.property(hex(4), hex(2), hex(2), hex(1), (d, b, dv, f) => verifyPCIBusID(`${d}:${b}:${dv}.${f}`) === undefined));
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), (s) => {
        try {
          verifyPCIBusID(s);
          expect(s).toMatch(/^[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-9a-f]$/);
        } catch (e) {
          expect(e).toBeInstanceOf(DeviceAttributeError);
        }
      }),
    );
  });
});

describe('getPCIeRootAttributeByPCIBusID', () => {
  it('is the first component of the device path behind the bus link, bridges in between or not', () => {
    sysfs = new FakeSysfs();
    sysfs.device({ bdf: '0000:00:02.0', devicePath: 'pci0000:00/0000:00:02.0' });
    sysfs.device({ bdf: '0000:04:1f.0', devicePath: 'pci0000:00/0000:00:01.0/0000:02:00.0/0000:03:08.0/0000:04:1f.0' });
    sysfs.device({ bdf: '0001:81:00.1', devicePath: 'pci0001:80/0001:80:03.0/0001:81:00.1' });
    const root = { sysfsRoot: sysfs.root };
    expect(getPCIeRootAttributeByPCIBusID('0000:00:02.0', root)).toEqual({ name: 'resource.kubernetes.io/pcieRoot', value: { string: 'pci0000:00' } });
    expect(getPCIeRootAttributeByPCIBusID('0000:04:1f.0', root).value).toEqual({ string: 'pci0000:00' });
    expect(getPCIeRootAttributeByPCIBusID('0001:81:00.1', root).value).toEqual({ string: 'pci0001:80' });
  });

  it('takes an absolute link target inside the sysfs root', () => {
    sysfs = new FakeSysfs();
    sysfs.link('bus/pci/devices/0000:05:00.0', `${sysfs.root}/devices/pci0000:04/0000:04:00.0/0000:05:00.0`);
    expect(getPCIeRootAttributeByPCIBusID('0000:05:00.0', { sysfsRoot: sysfs.root }).value).toEqual({ string: 'pci0000:04' });
  });

  it('explains a missing link, a plain directory, and links leading elsewhere', () => {
    sysfs = new FakeSysfs();
    const root = { sysfsRoot: sysfs.root };
    const bus = (bdf: string) => `${sysfs.root}/bus/pci/devices/${bdf}`;
    const prefix = `${sysfs.root}/devices/pci`;
    expect(() => getPCIeRootAttributeByPCIBusID('0000:09:00.0', root)).toThrow(
      new DeviceAttributeError(
        `failed to resolve PCIe Root Complex for PCI Bus ID 0000:09:00.0: failed to read symlink for PCI Bus ID ${bus('0000:09:00.0')}: readlink ${bus('0000:09:00.0')}: no such file or directory`,
      ),
    );
    sysfs.write('bus/pci/devices/0000:0a:00.0/numa_node', '0');
    expect(() => getPCIeRootAttributeByPCIBusID('0000:0a:00.0', root)).toThrow(`readlink ${bus('0000:0a:00.0')}: invalid argument`);
    sysfs.link('bus/pci/devices/0000:0b:00.0', '../../../devices/platform/0000:0b:00.0');
    expect(() => getPCIeRootAttributeByPCIBusID('0000:0b:00.0', root)).toThrow(
      `symlink target for PCI Bus ID 0000:0b:00.0 is invalid: it must start with ${prefix}: ${sysfs.root}/devices/platform/0000:0b:00.0`,
    );
    sysfs.link('bus/pci/devices/0000:0c:00.0', '../../../devices/pci0000:00/0000:0d:00.0');
    expect(() => getPCIeRootAttributeByPCIBusID('0000:0c:00.0', root)).toThrow(
      `symlink target for PCI Bus ID 0000:0c:00.0 is invalid: it must end with 0000:0c:00.0: ${sysfs.root}/devices/pci0000:00/0000:0d:00.0`,
    );
    sysfs.link('bus/pci/devices/0000:0e:00.0', '/etc/passwd');
    expect(() => getPCIeRootAttributeByPCIBusID('0000:0e:00.0', root)).toThrow('it must start with');
    // A link that loops is only read, never followed: it leads nowhere valid.
    sysfs.link('bus/pci/devices/0000:0f:00.0', '0000:0f:00.0');
    expect(() => getPCIeRootAttributeByPCIBusID('0000:0f:00.0', root)).toThrow('it must start with');
    expect(() => getPCIeRootAttributeByPCIBusID('0000:0F:00.0', root)).toThrow(new DeviceAttributeError('invalid PCI Bus ID format: 0000:0F:00.0'));
  });
});
