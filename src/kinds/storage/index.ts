/** The storage group's kinds. */
import type { KindDefinition } from '../../schema/define-kind.js';
import { CSIDriverKind } from './csi-driver.js';
import { CSINodeKind } from './csi-node.js';
import { CSIStorageCapacityKind } from './csi-storage-capacity.js';
import { StorageClassKind } from './storage-class.js';
import { VolumeAttachmentKind } from './volume-attachment.js';
import { VolumeAttributesClassKind } from './volume-attributes-class.js';

export { CSIDriverKind, type CSIDriver } from './csi-driver.js';
export { CSINodeKind, type CSINode } from './csi-node.js';
export { CSIStorageCapacityKind, type CSIStorageCapacity } from './csi-storage-capacity.js';
export { StorageClassKind, type StorageClass } from './storage-class.js';
export { VolumeAttachmentKind, type VolumeAttachment } from './volume-attachment.js';
export { VolumeAttributesClassKind, type VolumeAttributesClass } from './volume-attributes-class.js';

/** StorageClass, VolumeAttachment, CSIDriver, CSINode, CSIStorageCapacity, VolumeAttributesClass. */
export const storageKinds: readonly KindDefinition[] = [
  StorageClassKind,
  VolumeAttachmentKind,
  CSIDriverKind,
  CSINodeKind,
  CSIStorageCapacityKind,
  VolumeAttributesClassKind,
];
