/** The flowcontrol.apiserver group's kinds. */
import type { KindDefinition } from '../../schema/define-kind.js';
import { FlowSchemaKind } from './flow-schema.js';
import { PriorityLevelConfigurationKind } from './priority-level-configuration.js';

export { FlowSchemaKind, type FlowSchema } from './flow-schema.js';
export { PriorityLevelConfigurationKind, type PriorityLevelConfiguration } from './priority-level-configuration.js';
export { AUTO_UPDATE_ANNOTATION, flowControlBootstrap, type FlowControlBootstrap } from './bootstrap.js';

/** FlowSchema and PriorityLevelConfiguration. */
export const flowcontrolKinds: readonly KindDefinition[] = [FlowSchemaKind, PriorityLevelConfigurationKind];
