/** The discovery group's kinds. */
import type { KindDefinition } from '../../schema/define-kind.js';
import { EndpointSliceKind } from './endpoint-slice.js';

export { EndpointSliceKind, type EndpointSlice } from './endpoint-slice.js';

/** EndpointSlice. */
export const discoveryKinds: readonly KindDefinition[] = [EndpointSliceKind];
