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

import { admissionregistrationKinds } from './admissionregistration/index.js';
import { apiregistrationKinds } from './apiregistration/index.js';
import { appsKinds } from './apps/index.js';
import { certificatesKinds } from './certificates/index.js';
import { coordinationKinds } from './coordination/index.js';
import { eventsKinds } from './events/index.js';
import { flowcontrolKinds } from './flowcontrol/index.js';
import { apiserverinternalKinds } from './apiserverinternal/index.js';
import { storagemigrationKinds } from './storagemigration/index.js';
import { lifecycleKinds } from './lifecycle/index.js';
import { networkingKinds } from './networking/index.js';
import { resourceKinds } from './resource/index.js';
import { schedulingKinds } from './scheduling/index.js';

export * from './core/index.js';
export * from './apps/index.js';
export * from './certificates/index.js';
export * from './coordination/index.js';
export * from './events/index.js';
export * from './lifecycle/index.js';
export * from './networking/index.js';
export * from './resource/index.js';
export * from './scheduling/index.js';
export * from './apiregistration/index.js';
export * from './admissionregistration/index.js';
export * from './flowcontrol/index.js';
export * from './apiserverinternal/index.js';
export * from './storagemigration/index.js';

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
  ...appsKinds,
  ...certificatesKinds,
  ...coordinationKinds,
  ...eventsKinds,
  ...lifecycleKinds,
  ...networkingKinds,
  ...resourceKinds,
  ...schedulingKinds,
  ...apiregistrationKinds,
  ...admissionregistrationKinds,
  ...flowcontrolKinds,
  ...apiserverinternalKinds,
  ...storagemigrationKinds,
];
