/** StorageVersionMigration (storagemigration v1beta1, cluster-scoped, with `/status`; gate StorageVersionMigrator). */
import { defineKind } from '../../schema/define-kind.js';
import { semanticEqualAt } from '../shared/semantic-equal.js';
import { StorageVersionMigration as V1Beta1 } from '../types/storagemigration-v1beta1.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** A StorageVersionMigration object. */
export type StorageVersionMigration = V1Beta1;

/** The feature gate of StorageVersionMigration. */
export const STORAGE_VERSION_MIGRATOR = 'StorageVersionMigrator';

/**
 * StorageVersionMigration: a request to rewrite every object of one resource in its storage
 * version; its progress is status (conditions, the resource version reached) through `/status`.
 * The spec is immutable. Nothing migrates anything in memkube (objects are always stored in their
 * storage version).
 */
export const StorageVersionMigrationKind = defineKind<StorageVersionMigration>({
  group: 'storagemigration.{api_domain}',
  kind: 'StorageVersionMigration',
  plural: 'storageversionmigrations',
  scope: 'Cluster',
  featureGate: STORAGE_VERSION_MIGRATOR,
  // No generation: pkg/registry/storagemigration/storagemigration/strategy.go never sets it.
  generation: false,
  versions: [lazyVersion('v1beta1', V1Beta1, { storage: true })],
  statusSubresource: true,
  immutableFields: [{ path: 'spec', equal: semanticEqualAt(V1Beta1, 'spec'), shown: 'nil' }],
  printerColumns: [
    {
      name: 'Resource',
      type: 'string',
      description: 'Fully qualified resource to migrate',
      value: (m) => `${m.spec?.resource?.resource ?? ''}.${m.spec?.resource?.group ?? ''}`,
    },
  ],
  strategy: {
    defaults(m) {
      // The status is a Go struct: the server always serializes it.
      m.status ??= {};
    },
  },
});
