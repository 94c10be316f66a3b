/** The node.k8s.io group's kinds. */
import type { KindDefinition } from '../../schema/define-kind.js';
import { RuntimeClassKind } from './runtime-class.js';

export { RuntimeClassKind, type RuntimeClass } from './runtime-class.js';

/** RuntimeClass. */
export const nodeKinds: readonly KindDefinition[] = [RuntimeClassKind];
