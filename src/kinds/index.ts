/** Every built-in kind, in the order the registry serves them. */
import type { KindDefinition } from '../schema/define-kind.js';
import {
  ConfigMapKind,
  EventKind,
  NamespaceKind,
  NodeKind,
  PersistentVolumeClaimKind,
  PodKind,
  SecretKind,
  ServiceAccountKind,
  ServiceKind,
} from './core/index.js';

export * from './core/index.js';

/** The kinds every cluster serves. */
export const builtinKinds: readonly KindDefinition[] = [
  NamespaceKind,
  ConfigMapKind,
  SecretKind,
  ServiceAccountKind,
  PodKind,
  NodeKind,
  ServiceKind,
  PersistentVolumeClaimKind,
  EventKind,
];
