/** The internal.apiserver group's kinds. */
import type { KindDefinition } from '../../schema/define-kind.js';
import { StorageVersionKind } from './storage-version.js';

export { StorageVersionKind, STORAGE_VERSION_API, type StorageVersion } from './storage-version.js';

/** StorageVersion. */
export const apiserverinternalKinds: readonly KindDefinition[] = [StorageVersionKind];
