/** The apiextensions group's kinds. */
import type { KindDefinition } from '../../schema/define-kind.js';
import { CustomResourceDefinitionKind } from './custom-resource-definition.js';

export { CustomResourceDefinitionKind, defineCustomResourceDefinitionKind, type CustomResourceDefinition } from './custom-resource-definition.js';
export * from './crd/index.js';

/** CustomResourceDefinition. */
export const apiextensionsKinds: readonly KindDefinition[] = [CustomResourceDefinitionKind];
