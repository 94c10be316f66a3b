/**
 * The engine as a kind's code reaches it (an action, a review): requests go through it as the
 * caller of the request being served, and answers come back as copies the code may change (the
 * engine answers with frozen stored objects).
 */
import type { ApiRequest, ApiResponse } from '../machinery/request.js';
import { cloneJson } from '../util/json-clone.js';
import { extended } from '../util/extended.js';

/** `request` for the code serving `req`: `engine` as `req`'s user and user agent. */
export function requestsAsCaller(
  req: ApiRequest,
  engine: (req: ApiRequest) => Promise<ApiResponse>,
): (inner: Omit<ApiRequest, 'user' | 'userAgent'>) => Promise<ApiResponse> {
  return async (inner) => {
    const res = await engine(extended(inner, { user: req.user, userAgent: req.userAgent }));
    return { ...res, body: cloneJson(res.body) };
  };
}
