/**
 * How kube-apiserver serializes an audit event: JSON in the field order of the Go structs
 * (k8s.io/apiserver `pkg/apis/audit/v1/types.go`), empty optional fields left out as `omitempty`
 * does, map keys sorted, `<`, `>` and `&` escaped as `encoding/json` does; and the one-line text
 * of the legacy log format (`audit.EventString` of k8s.io/apiserver `pkg/audit/format.go`).
 */
import { compareGoStrings, goJson, goJsonString, goQuote } from '../../util/go-format.js';
import type { AuditEvent, AuditEventList, AuditObjectReference, AuditResponseStatus, AuditUserInfo } from '../event.js';

type Field = readonly [name: string, json: string | undefined];

/** `{"a":1,...}` of the fields that are written (undefined ones are omitted). */
function object(fields: readonly Field[]): string {
  const parts: string[] = [];
  for (const [name, json] of fields) if (json !== undefined) parts.push(`${goJsonString(name)}:${json}`);
  return `{${parts.join(',')}}`;
}

const str = (v: string | undefined): string | undefined => (v === undefined ? undefined : goJsonString(v));
/** A string with `omitempty`: left out when empty. */
const optStr = (v: string | undefined): string | undefined => (v === undefined || v === '' ? undefined : goJsonString(v));
const optList = (v: readonly string[] | undefined): string | undefined =>
  v === undefined || v.length === 0 ? undefined : `[${v.map(goJsonString).join(',')}]`;

/** A Go map: keys in byte order. */
function sortedMap<T>(map: Readonly<Record<string, T>> | undefined, value: (v: T) => string): string | undefined {
  if (map === undefined) return undefined;
  const keys = Object.keys(map).sort(compareGoStrings);
  if (keys.length === 0) return undefined;
  return `{${keys.map((k) => `${goJsonString(k)}:${value(map[k]!)}`).join(',')}}`;
}

/** authentication/v1 UserInfo: every field `omitempty`; a nil extra value is `null`. */
function userInfo(u: AuditUserInfo): string {
  return object([
    ['username', optStr(u.username)],
    ['uid', optStr(u.uid)],
    ['groups', optList(u.groups)],
    ['extra', sortedMap(u.extra, (v) => (v === null || v === undefined ? 'null' : `[${v.map(goJsonString).join(',')}]`))],
  ]);
}

function objectRef(r: AuditObjectReference): string {
  return object([
    ['resource', optStr(r.resource)],
    ['namespace', optStr(r.namespace)],
    ['name', optStr(r.name)],
    ['uid', optStr(r.uid)],
    ['apiGroup', optStr(r.apiGroup)],
    ['apiVersion', optStr(r.apiVersion)],
    ['resourceVersion', optStr(r.resourceVersion)],
    ['subresource', optStr(r.subresource)],
  ]);
}

/** metav1.Status: `metadata` always (a struct is never omitted), `code` left out when 0. */
function responseStatus(s: AuditResponseStatus): string {
  const loose = s as AuditResponseStatus & { kind?: string; apiVersion?: string };
  return object([
    ['kind', optStr(loose.kind)],
    ['apiVersion', optStr(loose.apiVersion)],
    ['metadata', goJson(s.metadata ?? {})],
    ['status', optStr(s.status)],
    ['message', optStr(s.message)],
    ['reason', optStr(s.reason)],
    ['details', s.details === undefined || s.details === null ? undefined : goJson(s.details)],
    ['code', s.code ? String(s.code) : undefined],
  ]);
}

/** A raw object (`runtime.Unknown`): written as it came, nil left out. */
const raw = (v: unknown): string | undefined => (v === undefined || v === null ? undefined : goJson(v));

/**
 * One event as JSON. `typeMeta` false leaves out `kind` and `apiVersion`, as for the items of an
 * EventList (the API server's events carry no type of their own; only the encoded top object does).
 */
export function encodeAuditEvent(e: AuditEvent, typeMeta = true): string {
  return object([
    ['kind', typeMeta ? str('Event') : undefined],
    ['apiVersion', typeMeta ? str('audit.k8s.io/v1') : undefined],
    ['level', str(e.level)],
    ['auditID', str(e.auditID)],
    ['stage', str(e.stage)],
    ['requestURI', str(e.requestURI)],
    ['verb', str(e.verb)],
    ['user', userInfo(e.user)],
    ['impersonatedUser', e.impersonatedUser ? userInfo(e.impersonatedUser) : undefined],
    ['sourceIPs', optList(e.sourceIPs)],
    ['userAgent', optStr(e.userAgent)],
    ['objectRef', e.objectRef ? objectRef(e.objectRef) : undefined],
    ['responseStatus', e.responseStatus ? responseStatus(e.responseStatus) : undefined],
    ['requestObject', raw(e.requestObject)],
    ['responseObject', raw(e.responseObject)],
    ['requestReceivedTimestamp', str(e.requestReceivedTimestamp)],
    ['stageTimestamp', str(e.stageTimestamp)],
    ['annotations', sortedMap(e.annotations, goJsonString)],
  ]);
}

/** A line of the json log format: the event and a newline, as `json.Encoder` writes it. */
export function auditJsonLine(e: AuditEvent): string {
  return `${encodeAuditEvent(e)}\n`;
}

/** The body a webhook backend posts: an audit.k8s.io/v1 EventList of the events. */
export function encodeAuditEventList(events: readonly AuditEvent[]): string {
  return `{"kind":"EventList","apiVersion":"audit.k8s.io/v1","metadata":{},"items":[${events.map((e) => encodeAuditEvent(e, false)).join(',')}]}\n`;
}

/** The events of an EventList object as the pipeline hands them (`kind` EventList). */
export function eventListOf(events: readonly AuditEvent[]): AuditEventList {
  return { kind: 'EventList', apiVersion: 'audit.k8s.io/v1', metadata: {}, items: [...events] };
}

/** Go's `time.RFC3339Nano` of a timestamp written with a fraction: trailing zeros of the fraction dropped. */
function rfc3339Nano(ts: string): string {
  const m = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d+))?(Z|[+-]\d\d:\d\d)$/.exec(ts);
  if (!m) return ts;
  const fraction = (m[2] ?? '').replace(/0+$/, '');
  return `${m[1]}${fraction ? `.${fraction}` : ''}${m[3]}`;
}

/** `"a","b"`: each group quoted, joined by commas (then quoted again by the line). */
const quotedList = (list: readonly string[]): string => list.map(goQuote).join(',');

/**
 * A line of the legacy log format:
 * `<time> AUDIT: id="..." stage="..." ip="..." method="..." user="..." groups="..." as="..." asgroups="..." user-agent="..." namespace="..." uri="..." response="..."`.
 */
export function auditLegacyLine(e: AuditEvent): string {
  let username = '<none>';
  let groups = '<none>';
  if (e.user.username) {
    username = e.user.username;
    if (e.user.groups && e.user.groups.length > 0) groups = quotedList(e.user.groups);
  }
  let as = '<self>';
  let asGroups = '<lookup>';
  if (e.impersonatedUser) {
    as = e.impersonatedUser.username ?? '';
    // A nil group list keeps <lookup>; an empty one is written empty.
    if (e.impersonatedUser.groups !== undefined && e.impersonatedUser.groups !== null) asGroups = quotedList(e.impersonatedUser.groups);
  }
  const namespace = e.objectRef?.namespace ? e.objectRef.namespace : '<none>';
  const response = e.responseStatus ? String(e.responseStatus.code ?? 0) : '<deferred>';
  const ip = e.sourceIPs && e.sourceIPs.length > 0 ? e.sourceIPs[0]! : '<unknown>';
  const q = goQuote;
  return (
    `${rfc3339Nano(e.requestReceivedTimestamp)} AUDIT: id=${q(e.auditID)} stage=${q(e.stage)} ip=${q(ip)} method=${q(e.verb)} ` +
    `user=${q(username)} groups=${q(groups)} as=${q(as)} asgroups=${q(asGroups)} user-agent=${q(e.userAgent ?? '')} ` +
    `namespace=${q(namespace)} uri=${q(e.requestURI)} response="${response}"\n`
  );
}
