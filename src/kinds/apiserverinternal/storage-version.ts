/** StorageVersion (internal.apiserver v1alpha1, cluster-scoped, with `/status`; gate StorageVersionAPI). */
import { defineKind } from '../../schema/define-kind.js';
import { isDNS1035Label, isDNS1123Subdomain } from '../../schema/validation/names.js';
import { StorageVersion as V1Alpha1 } from '../types/apiserverinternal-v1alpha1.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** A StorageVersion object. */
export type StorageVersion = V1Alpha1;

/** The feature gate of StorageVersion. */
export const STORAGE_VERSION_API = 'StorageVersionAPI';

/** `ValidateStorageVersionName`: `<group>.<resource>`, the group a DNS subdomain, the resource a DNS-1035 label. */
function validateName(name: string): string[] {
  const dot = name.lastIndexOf('.');
  if (dot < 0) return ['name must be in the form of <group>.<resource>'];
  return [
    ...isDNS1123Subdomain(name.slice(0, dot)).map((m) => `the group segment ${m}`),
    ...isDNS1035Label(name.slice(dot + 1)).map((m) => `the resource segment ${m}`),
  ];
}

/** The `StorageVersions` column: `<apiserver>=<encoding version>` for up to three servers. */
function storageVersionsColumn(sv: Readonly<StorageVersion>): string {
  const all = sv.status?.storageVersions ?? [];
  const shown = all.slice(0, 3).map((v) => `${v.apiServerID ?? ''}=${v.encodingVersion ?? ''}`);
  if (all.length > 3) return `${shown.join(',')} + ${all.length - 3} more...`;
  return shown.length ? shown.join(',') : '<unset>';
}

/**
 * StorageVersion: which version each API server encodes a resource in, reported by the servers
 * through `/status`; named `<group>.<resource>`. Stored only.
 */
export const StorageVersionKind = defineKind<StorageVersion>({
  group: 'internal.apiserver.{api_domain}',
  kind: 'StorageVersion',
  plural: 'storageversions',
  scope: 'Cluster',
  featureGate: STORAGE_VERSION_API,
  // No generation: pkg/registry/apiserverinternal/storageversion/strategy.go never sets it.
  generation: false,
  versions: [lazyVersion('v1alpha1', V1Alpha1, { storage: true })],
  statusSubresource: true,
  nameValidator: (name) => validateName(name),
  printerColumns: [
    {
      name: 'CommonEncodingVersion',
      type: 'string',
      description:
        "commonEncodingVersion is set to an encoding storage version if all API server instances share that same version. If they don't share one storage version, this field is left empty. API servers should finish updating its storageVersionStatus entry before serving write operations, so that this field will be in sync with the reality.",
      value: (sv) => sv.status?.commonEncodingVersion ?? '<unset>',
    },
    {
      name: 'StorageVersions',
      type: 'string',
      description: 'storageVersions lists the reported versions per API server instance.',
      value: storageVersionsColumn,
    },
  ],
  strategy: {
    defaults(sv) {
      // Spec and status are Go structs: the server always serializes them.
      sv.spec ??= {};
      sv.status ??= {};
    },
  },
});
