/** The storagemigration group's kinds. */
import type { KindDefinition } from '../../schema/define-kind.js';
import { StorageVersionMigrationKind } from './storage-version-migration.js';

export { StorageVersionMigrationKind, STORAGE_VERSION_MIGRATOR, type StorageVersionMigration } from './storage-version-migration.js';

/** StorageVersionMigration. */
export const storagemigrationKinds: readonly KindDefinition[] = [StorageVersionMigrationKind];
