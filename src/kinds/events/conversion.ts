/**
 * events.k8s.io/v1 Event ↔ core/v1 Event. Both are one stored object (Kubernetes stores both as the
 * core Event); the fields are renamed, the deprecated ones carry the core event's classic fields.
 */
import type { KubeObject, VersionConversion } from '../../schema/define-kind.js';

/** events.k8s.io/v1 field → core/v1 field, where the names differ. */
const RENAMED = [
  ['regarding', 'involvedObject'],
  ['note', 'message'],
  ['reportingController', 'reportingComponent'],
  ['deprecatedSource', 'source'],
  ['deprecatedFirstTimestamp', 'firstTimestamp'],
  ['deprecatedLastTimestamp', 'lastTimestamp'],
  ['deprecatedCount', 'count'],
] as const;

/** The events.k8s.io/v1 fields in Go struct order (the order the server writes them). */
const EVENTS_V1_ORDER = [
  'metadata',
  'eventTime',
  'series',
  'reportingController',
  'reportingInstance',
  'action',
  'reason',
  'regarding',
  'related',
  'note',
  'type',
  'deprecatedSource',
  'deprecatedFirstTimestamp',
  'deprecatedLastTimestamp',
  'deprecatedCount',
] as const;

/**
 * Go zero values of the events.k8s.io/v1 fields its JSON tags never omit: struct fields (`{}`) and
 * times (`null`), as the real server serializes a stored core Event read through events.k8s.io.
 */
const ZERO: Readonly<Record<string, unknown>> = {
  eventTime: null,
  regarding: {},
  deprecatedSource: {},
  deprecatedFirstTimestamp: null,
  deprecatedLastTimestamp: null,
};

function rename(obj: KubeObject, from: 0 | 1): KubeObject {
  const out: KubeObject = { ...obj };
  for (const pair of RENAMED) {
    const source = pair[from];
    const target = pair[1 - from]!;
    delete out[source];
    if (obj[source] !== undefined && obj[source] !== null) out[target] = obj[source];
  }
  return out;
}

/** The conversion of the events.k8s.io/v1 Event to and from the stored core Event. */
export const eventsV1Conversion: VersionConversion = {
  toStorage(obj) {
    return rename(obj, 0);
  },
  fromStorage(obj) {
    const renamed = rename(obj, 1);
    const out: Record<string, unknown> = {};
    for (const field of EVENTS_V1_ORDER) {
      const value = renamed[field] ?? ZERO[field];
      if (value !== undefined) out[field] = value;
    }
    return out as KubeObject;
  },
};
