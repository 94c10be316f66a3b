/** Standard device attributes of dynamic resource allocation drivers. */
export { DeviceAttributeError, NUMA_NODE_ATTRIBUTE, PCI_BUS_ID_ATTRIBUTE, PCIE_ROOT_ATTRIBUTE, STANDARD_DEVICE_ATTRIBUTE_PREFIX } from './attributes.js';
export type { DeviceAttribute, DeviceAttributeOptions, DeviceAttributeValue, NUMANodeAttributeForm } from './attributes.js';
export { getEquidistantNUMANodes, getNUMANodeAttribute, getNUMANodeAttributeByPCIBusID, getNUMANodeForCPU, MAX_NUMA_NODES } from './numa.js';
export type { NUMANodeAttribute } from './numa.js';
export { getPCIBusIDAttribute, getPCIeRootAttributeByPCIBusID, verifyPCIBusID } from './pci.js';
