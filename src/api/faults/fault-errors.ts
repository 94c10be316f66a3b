/**
 * The errors a fault answers, with the Status fields kube-apiserver's apimachinery gives them
 * (reason, code, message wording and details), so a client reacts to them as to the real ones.
 */
import { ApiError, conflict, internalError, OBJECT_MODIFIED, qualifiedResource } from '../../machinery/errors.js';
import type { ApiRequest } from '../../machinery/request.js';
import type { FaultError } from './types.js';

/** The ApiError a fault answers for `req`. */
export function faultError(answer: FaultError, req: ApiRequest): ApiError {
  const gr = { group: req.resource.group, resource: req.resource.resource };
  const retryAfterSeconds = answer.retryAfterSeconds ?? 1;
  switch (answer.error) {
    case 'Conflict':
      return conflict(gr, req.name ?? '', answer.message ?? OBJECT_MODIFIED);
    case 'TooManyRequests':
      return new ApiError({
        code: 429,
        reason: 'TooManyRequests',
        message: answer.message ?? 'Too many requests, please try again later.',
        details: { retryAfterSeconds },
      });
    case 'InternalError':
      return internalError(answer.message ?? 'injected fault');
    case 'Timeout':
      return new ApiError({
        code: 504,
        reason: 'Timeout',
        message: `Timeout: ${answer.message ?? 'request did not complete within the allotted timeout'}`,
        details: { retryAfterSeconds },
      });
    case 'ServerTimeout':
      return new ApiError({
        code: 500,
        reason: 'ServerTimeout',
        message: `The ${req.verb} operation against ${qualifiedResource(gr)} could not be completed at this time, please try again.`,
        details: { name: req.verb, group: gr.group || undefined, kind: gr.resource, retryAfterSeconds },
      });
    case 'ServiceUnavailable':
      return new ApiError({ code: 503, reason: 'ServiceUnavailable', message: answer.message ?? 'the server is currently unable to handle the request' });
  }
}
