/** The lifecycle group's kinds. */
import type { KindDefinition } from '../../schema/define-kind.js';
import { EvictionRequestKind } from './eviction-request.js';

export { EvictionRequestKind, EVICTION_REQUEST_API, type EvictionRequest } from './eviction-request.js';
export { EVICTION_REQUEST_INTENTS, MAX_EVICTION_REQUEST_CONDITIONS } from './eviction-request-validation.js';

/** EvictionRequest. */
export const lifecycleKinds: readonly KindDefinition[] = [EvictionRequestKind];
