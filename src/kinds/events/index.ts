/** The events.k8s.io group's kinds. */
import type { KindDefinition } from '../../schema/define-kind.js';
import { EventsV1EventKind } from './event.js';

export { EventsV1EventKind, type EventsV1Event } from './event.js';
export { eventsV1Conversion } from './conversion.js';

/** Event in events.k8s.io/v1. */
export const eventsKinds: readonly KindDefinition[] = [EventsV1EventKind];
