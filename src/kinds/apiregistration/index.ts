/** The apiregistration group's kinds. */
import type { KindDefinition } from '../../schema/define-kind.js';
import { APIServiceKind } from './api-service.js';

export { APIServiceKind, type APIService } from './api-service.js';

/** APIService. */
export const apiregistrationKinds: readonly KindDefinition[] = [APIServiceKind];
