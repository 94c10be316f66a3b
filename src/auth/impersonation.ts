/**
 * Acting as another user with the `Impersonate-User`, `Impersonate-Group`, `Impersonate-Uid` and
 * `Impersonate-Extra-<key>` headers, as k8s.io/apiserver's impersonation filter does: each thing
 * impersonated is authorized (`impersonate` on `users`, `groups`, `serviceaccounts`, `uids` or
 * `userextras/<key>`) for the authenticated requester, and the request then acts as the new user.
 */
import { ALL_AUTHENTICATED, ALL_UNAUTHENTICATED, ANONYMOUS_USER, type AuthorizationAttributes, type Authorizer } from '../machinery/auth.js';
import { ApiError, badRequest, internalError } from '../machinery/errors.js';
import type { UserInfo } from '../machinery/request.js';
import { getOwn, setOwn } from '../util/own.js';
import { forbiddenError } from './forbidden.js';

/** One thing a request asks to impersonate (Go's `v1.ObjectReference` the filter builds). */
interface ImpersonationRequest {
  readonly kind: 'ServiceAccount' | 'User' | 'Group' | 'UserExtra' | 'UID';
  readonly namespace: string;
  readonly name: string;
  readonly apiVersion: string;
  readonly fieldPath: string;
}

/** The headers a request carries, by lower-cased name; several values of one header in order. */
export type HeaderValues = (name: string) => readonly string[];

const SERVICE_ACCOUNT_PREFIX = 'system:serviceaccount:';
const AUTHENTICATION_V1 = 'authentication.k8s.io/v1';

/** `serviceaccount.SplitUsername`: the namespace and name of `system:serviceaccount:<ns>:<name>`. */
export function splitServiceAccountUsername(username: string): { namespace: string; name: string } | undefined {
  if (!username.startsWith(SERVICE_ACCOUNT_PREFIX)) return undefined;
  const parts = username.slice(SERVICE_ACCOUNT_PREFIX.length).split(':');
  if (parts.length !== 2 || !parts[0] || !parts[1]) return undefined;
  // The parts must be a valid namespace and service account name.
  const dns = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
  const sub = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
  if (parts[0].length > 63 || !dns.test(parts[0]) || parts[1].length > 253 || !sub.test(parts[1])) return undefined;
  return { namespace: parts[0], name: parts[1] };
}

/** The groups of every service account of a namespace (`serviceaccount.MakeGroupNames`). */
export function serviceAccountGroups(namespace: string): string[] {
  return ['system:serviceaccounts', `system:serviceaccounts:${namespace}`];
}

/** Go's `%v` of an ObjectReference, as the 400 message prints the requests. */
function goPrint(r: ImpersonationRequest): string {
  return `{${r.kind} ${r.namespace} ${r.name}  ${r.apiVersion}  ${r.fieldPath}}`;
}

function pathUnescape(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** `buildImpersonationRequests`: what the headers ask for; 400 when they impersonate no user. */
function impersonationRequests(names: readonly string[], values: HeaderValues): ImpersonationRequest[] {
  const out: ImpersonationRequest[] = [];
  const user = values('impersonate-user')[0] ?? '';
  if (user) {
    const sa = splitServiceAccountUsername(user);
    out.push(sa ? { kind: 'ServiceAccount', namespace: sa.namespace, name: sa.name, apiVersion: '', fieldPath: '' } : { kind: 'User', namespace: '', name: user, apiVersion: '', fieldPath: '' });
  }
  const groups = values('impersonate-group');
  for (const group of groups) out.push({ kind: 'Group', namespace: '', name: group, apiVersion: '', fieldPath: '' });
  let extras = false;
  for (const name of names) {
    if (!name.startsWith('impersonate-extra-')) continue;
    extras = true;
    const key = pathUnescape(name.slice('impersonate-extra-'.length));
    for (const value of values(name)) out.push({ kind: 'UserExtra', namespace: '', name: value, apiVersion: AUTHENTICATION_V1, fieldPath: key });
  }
  const uid = values('impersonate-uid')[0] ?? '';
  if (uid) out.push({ kind: 'UID', namespace: '', name: uid, apiVersion: AUTHENTICATION_V1, fieldPath: '' });
  if ((groups.length > 0 || extras || uid) && !user) {
    throw badRequest(`requested [${out.map(goPrint).join(' ')}] without impersonating a user`);
  }
  return out;
}

/**
 * The user a request acts as: `requester` itself when no header impersonates anyone, else the
 * impersonated user once `authorizer` allowed each part. Throws 400 for headers that impersonate
 * groups, a uid or extras without a user, 403 (worded as kube-apiserver's) when a part is not
 * allowed, 500 when the authorizer failed.
 *
 * @param names every header name of the request, lower-cased
 */
export async function impersonatedUser(requester: UserInfo, names: readonly string[], values: HeaderValues, authorizer: Authorizer): Promise<UserInfo> {
  const requests = impersonationRequests(names, values);
  if (requests.length === 0) return requester;
  const groupsSpecified = values('impersonate-group').length > 0;
  let username = '';
  let uid = '';
  let groups: string[] = [];
  const extra: Record<string, string[]> = {};
  for (const r of requests) {
    const [group, version] = r.apiVersion ? r.apiVersion.split('/') : ['', ''];
    const base = { user: requester, verb: 'impersonate', apiGroup: group, apiVersion: version, namespace: r.namespace, name: r.name, resourceRequest: true };
    let attributes: AuthorizationAttributes;
    switch (r.kind) {
      case 'ServiceAccount':
        attributes = { ...base, resource: 'serviceaccounts' };
        username = `${SERVICE_ACCOUNT_PREFIX}${r.namespace}:${r.name}`;
        if (!groupsSpecified) groups = serviceAccountGroups(r.namespace);
        break;
      case 'User':
        attributes = { ...base, resource: 'users' };
        username = r.name;
        break;
      case 'Group':
        attributes = { ...base, resource: 'groups' };
        groups.push(r.name);
        break;
      case 'UserExtra':
        attributes = { ...base, resource: 'userextras', subresource: r.fieldPath };
        // The key is the client's (`Impersonate-Extra-constructor`): an own member, never the prototype's.
        setOwn(extra, r.fieldPath, [...((getOwn(extra, r.fieldPath) as string[] | undefined) ?? []), r.name]);
        break;
      case 'UID':
        attributes = { ...base, resource: 'uids' };
        uid = r.name;
        break;
    }
    let result;
    try {
      result = await authorizer.authorize(attributes);
    } catch (e) {
      throw e instanceof ApiError ? e : internalError(e);
    }
    if (result.decision !== 'Allow') throw forbiddenError(attributes, result.reason);
  }
  if (username !== ANONYMOUS_USER) {
    if (!groups.some((g) => g === ALL_AUTHENTICATED || g === ALL_UNAUTHENTICATED)) groups.push(ALL_AUTHENTICATED);
  } else if (!groups.includes(ALL_UNAUTHENTICATED)) {
    groups.push(ALL_UNAUTHENTICATED);
  }
  const user: UserInfo = { username, groups };
  if (uid) user.uid = uid;
  if (Object.keys(extra).length > 0) user.extra = extra;
  return user;
}
