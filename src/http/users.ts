/**
 * Who a request is from. memkube does not authenticate: a request is anonymous unless it
 * impersonates someone with `Impersonate-User`, `Impersonate-Group`, `Impersonate-Uid` and
 * `Impersonate-Extra-<key>` (as kubectl's `--as`, `--as-group`, `--as-uid` send them).
 */
import { ApiError } from '../machinery/errors.js';
import type { UserInfo } from '../machinery/request.js';
import { getOwn, setOwn } from '../util/own.js';

/** The user of a request with no credentials. */
export const ANONYMOUS: UserInfo = { username: 'system:anonymous', groups: ['system:unauthenticated'] };

/** The user a request acts as. */
export function userOf(headers: Headers, fallback: UserInfo = ANONYMOUS): UserInfo {
  const username = headers.get('impersonate-user');
  const groups = splitHeader(headers, 'impersonate-group');
  const uid = headers.get('impersonate-uid');
  const extra: Record<string, string[]> = {};
  for (const [name, value] of headers) {
    if (!name.toLowerCase().startsWith('impersonate-extra-')) continue;
    let key = name.slice('impersonate-extra-'.length).toLowerCase();
    try {
      key = decodeURIComponent(key);
    } catch {
      /* keep it as sent */
    }
    // The key is the client's (`Impersonate-Extra-constructor`): an own member, never the prototype's.
    setOwn(extra, key, [...((getOwn(extra, key) as string[] | undefined) ?? []), ...value.split(',').map((v) => v.trim())]);
  }
  if (username === null) {
    if (groups.length || uid !== null || Object.keys(extra).length) {
      throw new ApiError({ code: 500, reason: 'InternalError', message: 'Internal error occurred: requested impersonation without impersonating a user' });
    }
    return fallback;
  }
  const all = [...groups];
  if (username !== 'system:anonymous' && !all.includes('system:authenticated')) all.push('system:authenticated');
  const user: UserInfo = { username, groups: all };
  if (uid !== null) user.uid = uid;
  if (Object.keys(extra).length) user.extra = extra;
  return user;
}

function splitHeader(headers: Headers, name: string): string[] {
  const v = headers.get(name);
  return v === null
    ? []
    : v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
}
