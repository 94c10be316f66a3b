/** Event (events.k8s.io/v1): another door onto the core Events. */
import { defineKind, type KubeObject } from '../../schema/define-kind.js';
import { EventKind } from '../core/index.js';
import { validateEvent, validateStrictEventCreate, validateStrictEventUpdate } from '../shared/event-rules.js';
import type { Event as CoreEvent } from '../types/core-v1.js';
import { Event as EventSchema } from '../types/events-v1.js';
import { eventsV1Conversion } from './conversion.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** An events.k8s.io/v1 Event object. */
export type EventsV1Event = EventSchema;

/** The hooks see the stored core Event (see `sharesStorageWith`). */
const core = (obj: KubeObject) => obj as unknown as CoreEvent;

/**
 * Event in events.k8s.io/v1. Its objects are the core Events, converted on the way in and out
 * (note ↔ message, regarding ↔ involvedObject, reportingController ↔ reportingComponent,
 * deprecated* ↔ the classic fields). Requests through this door get Kubernetes' strict rules:
 * eventTime, action, reason, type (Normal|Warning), reportingController and reportingInstance
 * required on create, the classic fields unset, and what the event reports immutable.
 */
export const EventsV1EventKind = defineKind<EventsV1Event>({
  group: 'events.{api_domain}',
  kind: 'Event',
  plural: 'events',
  shortNames: ['ev'],
  scope: 'Namespaced',
  // No generation: pkg/registry/core/event/strategy.go (the shared storage) never sets it.
  generation: false,
  versions: [lazyVersion('v1', EventSchema, { storage: true, conversion: eventsV1Conversion })],
  sharesStorageWith: EventKind,
  allowCreateOnUpdate: true,
  // Kubernetes checks these fields in code, with the messages of the rules below.
  schemaRequired: false,
  strategy: {
    validate(obj, ctx) {
      const event = core(obj);
      const errors = validateEvent(event, 'events');
      if (ctx.operation === 'create') errors.push(...validateStrictEventCreate(event));
      return errors;
    },
    validateUpdate: (obj, old) => validateStrictEventUpdate(core(obj), core(old as KubeObject)),
  },
  // Kubernetes maps these events.k8s.io labels to the core Event's fields.
  selectableFields: {
    'regarding.kind': (e) => core(e).involvedObject?.kind,
    'regarding.namespace': (e) => core(e).involvedObject?.namespace,
    'regarding.name': (e) => core(e).involvedObject?.name,
    'regarding.uid': (e) => core(e).involvedObject?.uid,
    'regarding.apiVersion': (e) => core(e).involvedObject?.apiVersion,
    'regarding.resourceVersion': (e) => core(e).involvedObject?.resourceVersion,
    'regarding.fieldPath': (e) => core(e).involvedObject?.fieldPath,
    reason: (e) => core(e).reason,
    reportingController: (e) => core(e).reportingComponent,
    type: (e) => core(e).type,
  },
});
