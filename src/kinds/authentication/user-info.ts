/** The `authentication.k8s.io/v1` UserInfo of a request's user. */
import type { UserInfo as RequestUser } from '../../machinery/request.js';
import type { UserInfo } from '../types/authentication-v1.js';

/** `user` as a review reports it: empty fields left out, as Go's `omitempty` leaves them out. */
export function userInfoOf(user: RequestUser): UserInfo {
  const out: UserInfo = {};
  if (user.username) out.username = user.username;
  if (user.uid) out.uid = user.uid;
  if (user.groups.length) out.groups = [...user.groups];
  if (user.extra && Object.keys(user.extra).length) out.extra = structuredClone(user.extra);
  return out;
}
