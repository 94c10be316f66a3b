/** The apiextensions group's kinds. */
import type { KindDefinition } from '../../schema/define-kind.js';
import { CustomResourceDefinitionKind } from './custom-resource-definition.js';

export { CustomResourceDefinitionKind, defineCustomResourceDefinitionKind, type CustomResourceDefinition } from './custom-resource-definition.js';
export * from './crd/index.js';
export { customResourceKind, type CustomResourceKindOptions } from './custom-resources/kind.js';

/** CustomResourceDefinition. */
export const apiextensionsKinds: readonly KindDefinition[] = [CustomResourceDefinitionKind];
