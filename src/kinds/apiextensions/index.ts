/** The apiextensions group's kinds. */
import type { KindDefinition } from '../../schema/define-kind.js';
import { CustomResourceDefinitionKind } from './custom-resource-definition.js';

export { CustomResourceDefinitionKind, defineCustomResourceDefinitionKind, type CustomResourceDefinition } from './custom-resource-definition.js';
export * from './crd/index.js';
export { customResourceKind, type CustomResourceKindOptions } from './custom-resources/kind.js';
export {
  defineCustomResource,
  type CustomResource,
  type CustomResourceDeclaration,
  type CustomResourceObject,
  type CustomResourceVersionDeclaration,
} from './custom-resources/define-custom-resource.js';

/** CustomResourceDefinition. */
export const apiextensionsKinds: readonly KindDefinition[] = [CustomResourceDefinitionKind];
