/**
 * PCI device attributes (deviceattribute/pci_linux.go): the bus ID in extended BDF notation, and the
 * PCIe root complex found by following `/sys/bus/pci/devices/<bdf>` — a symbolic link into
 * `/sys/devices/pci<domain>:<bus>/.../<bdf>`, whose first component is the root.
 */
import { dirname, isAbsolute, join, basename } from 'node:path';
import {
  DeviceAttributeError,
  PCI_BUS_ID_ATTRIBUTE,
  PCIE_ROOT_ATTRIBUTE,
  sysfsRootOf,
  type DeviceAttribute,
  type DeviceAttributeOptions,
} from './attributes.js';
import { readLink } from './sysfs.js';

/** Extended BDF, lower-case hex: `DDDD:BB:DD.F`. */
const BDF = /^[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-9a-f]$/;

/**
 * Throws unless `pciBusID` is an extended BDF address (`verifyPCIBDFFormat`).
 * @category Node agent
 */
export function verifyPCIBusID(pciBusID: string): void {
  if (pciBusID === '') throw new DeviceAttributeError('PCI Bus ID cannot be empty');
  if (!BDF.test(pciBusID)) throw new DeviceAttributeError(`invalid PCI Bus ID format: ${pciBusID}`);
}

/**
 * The `pciBusID` attribute of a device (`GetPCIBusIDAttribute`); throws for a malformed address.
 * @category Node agent
 */
export function getPCIBusIDAttribute(pciBusID: string): DeviceAttribute<{ string: string }> {
  verifyPCIBusID(pciBusID);
  return { name: PCI_BUS_ID_ATTRIBUTE, value: { string: pciBusID } };
}

/**
 * The `pcieRoot` attribute of the PCI device `pciBusID` (`GetPCIeRootAttributeByPCIBusID`), read
 * from sysfs. Throws for a malformed address, a missing link, or a link that does not lead to
 * `<sysfs>/devices/pci.../<pciBusID>`.
 * @category Node agent
 */
export function getPCIeRootAttributeByPCIBusID(pciBusID: string, options?: DeviceAttributeOptions): DeviceAttribute<{ string: string }> {
  verifyPCIBusID(pciBusID);
  try {
    return { name: PCIE_ROOT_ATTRIBUTE, value: { string: resolvePCIeRoot(sysfsRootOf(options), pciBusID) } };
  } catch (e) {
    throw new DeviceAttributeError(`failed to resolve PCIe Root Complex for PCI Bus ID ${pciBusID}: ${(e as Error).message}`);
  }
}

function resolvePCIeRoot(root: string, pciBusID: string): string {
  const busPath = join(root, 'bus', 'pci', 'devices', pciBusID);
  let target: string;
  try {
    target = readLink(busPath);
  } catch (e) {
    throw new DeviceAttributeError(`failed to read symlink for PCI Bus ID ${busPath}: ${(e as Error).message}`);
  }
  // Only the link itself is read, as the driver library does: `join` resolves `..` lexically.
  if (!isAbsolute(target)) target = join(dirname(busPath), target);
  const devicesDir = join(root, 'devices');
  const prefix = join(devicesDir, 'pci');
  if (!target.startsWith(prefix)) {
    throw new DeviceAttributeError(`symlink target for PCI Bus ID ${pciBusID} is invalid: it must start with ${prefix}: ${target}`);
  }
  if (basename(target) !== pciBusID) {
    throw new DeviceAttributeError(`symlink target for PCI Bus ID ${pciBusID} is invalid: it must end with ${pciBusID}: ${target}`);
  }
  return target.slice(devicesDir.length + 1).split('/')[0]!;
}
