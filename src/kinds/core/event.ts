/** Event (core v1). */
import { defineKind } from '../../schema/define-kind.js';
import { validatePathSegmentName } from '../../schema/validation/names.js';
import { Event as EventSchema } from '../types/core-v1.js';
import { validateEvent } from '../shared/event-rules.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** A core v1 Event object. */
export type Event = EventSchema;

/**
 * Event (core v1). Kubernetes validates core/v1 events with `legacyValidateEvent` only, on create
 * and on update alike; their names only need to be valid path segments.
 */
export const EventKind = defineKind<Event>({
  group: '',
  kind: 'Event',
  plural: 'events',
  shortNames: ['ev'],
  scope: 'Namespaced',
  // No generation: pkg/registry/core/event/strategy.go never sets it.
  generation: false,
  versions: [lazyVersion('v1', EventSchema, { storage: true })],
  allowCreateOnUpdate: true,
  nameValidator: validatePathSegmentName,
  // Core events get only the legacy checks, not the schema's required fields.
  schemaRequired: false,
  strategy: {
    validate: (event) => validateEvent(event, 'core'),
  },
  selectableFields: {
    'involvedObject.kind': (e) => e.involvedObject?.kind,
    'involvedObject.namespace': (e) => e.involvedObject?.namespace,
    'involvedObject.name': (e) => e.involvedObject?.name,
    'involvedObject.uid': (e) => e.involvedObject?.uid,
    'involvedObject.apiVersion': (e) => e.involvedObject?.apiVersion,
    'involvedObject.resourceVersion': (e) => e.involvedObject?.resourceVersion,
    'involvedObject.fieldPath': (e) => e.involvedObject?.fieldPath,
    reason: (e) => e.reason,
    reportingComponent: (e) => e.reportingComponent,
    source: (e) => e.source?.component,
    type: (e) => e.type,
  },
});
