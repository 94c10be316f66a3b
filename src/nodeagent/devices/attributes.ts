/**
 * The standard device attributes of dynamic resource allocation (k8s.io/dynamic-resource-allocation
 * `deviceattribute`): qualified names a driver publishes in a ResourceSlice so `matchAttribute`
 * constraints work across drivers, and the options every helper of this folder takes.
 */

/**
 * The prefix of the standard attributes (`StandardDeviceAttributePrefix`).
 * @category Node agent
 */
export const STANDARD_DEVICE_ATTRIBUTE_PREFIX = 'resource.kubernetes.io/';
/**
 * The device's NUMA node: an integer, or (feature gate DRAListTypeAttributes) a list of them.
 * @category Node agent
 */
export const NUMA_NODE_ATTRIBUTE = 'resource.kubernetes.io/numaNode';
/**
 * The device's PCI address in extended BDF notation `Domain:Bus:Device.Function`.
 * @category Node agent
 */
export const PCI_BUS_ID_ATTRIBUTE = 'resource.kubernetes.io/pciBusID';
/**
 * The device's PCIe root complex, `pci<domain>:<bus>`.
 * @category Node agent
 */
export const PCIE_ROOT_ATTRIBUTE = 'resource.kubernetes.io/pcieRoot';

/**
 * A ResourceSlice device attribute value, with the API's JSON field names.
 * @category Node agent
 */
export type DeviceAttributeValue = { readonly int: number } | { readonly ints: readonly number[] } | { readonly string: string };

/**
 * An attribute's qualified name and value (`DeviceAttribute`).
 * @category Node agent
 */
export interface DeviceAttribute<V extends DeviceAttributeValue = DeviceAttributeValue> {
  readonly name: string;
  readonly value: V;
}

/**
 * How to publish `numaNode` (`AttributeForm`): `scalar` is the physical node; `list` is the physical
 * node followed by the same-socket nodes at the smallest ACPI SLIT distance.
 * @category Node agent
 */
export type NUMANodeAttributeForm = 'scalar' | 'list';

/**
 * Options of the device attribute helpers.
 * @category Node agent
 */
export interface DeviceAttributeOptions {
  /** Where sysfs is mounted; default `/sys`. */
  readonly sysfsRoot?: string;
  /**
   * The feature gates the cluster runs with. The list form of `numaNode` needs
   * `DRAListTypeAttributes` (alpha, off by default): the API server drops list values otherwise.
   */
  readonly featureGates?: Readonly<Record<string, boolean>>;
}

/**
 * Thrown when an attribute cannot be made; the message is the driver library's.
 * @category Node agent
 */
export class DeviceAttributeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DeviceAttributeError';
  }
}

/** The sysfs root of `options`. */
export function sysfsRootOf(options: DeviceAttributeOptions | undefined): string {
  return options?.sysfsRoot ?? '/sys';
}
