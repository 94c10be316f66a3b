/**
 * Reaching a node's agent from the Pod's `log` and the Node's `proxy` subresources, as
 * kube-apiserver does: the Node read first (`nodes "x" not found`), its agent located by the
 * kubelet client; a failure that is no API error (no preferred address, connection refused) is a
 * 500 whose message is the error's own text and which has no reason (`ErrorToAPIStatus` of a plain
 * error); an agent's error status turned into an API error by `GenericHttpResponseChecker`
 * (k8s.io/apiserver/pkg/registry/generic/rest/response_checker.go).
 */
import { ApiError, badRequest, internalError, notFound, type GroupResource, type StatusReason } from '../../machinery/errors.js';
import type { NodeAgentResponse, NodeLocation } from '../../machinery/node-connections.js';
import type { StreamedBody } from '../../machinery/request.js';
import type { ConnectContext } from '../../schema/define-kind.js';
import { genericServerResponseMessage } from '../../webhook/result.js';

const NODES = { group: '', resource: 'nodes' };

/** A failure that is not an API error, as kube-apiserver answers it: 500, its text, no reason. */
export function plainFailure(message: string): ApiError {
  return new ApiError({ code: 500, message });
}

/** The node's agent location (`GetConnectionInfo`): 404 for a missing node, 500 when it has no preferred address. */
export async function locateNodeAgent(ctx: ConnectContext, nodeName: string): Promise<NodeLocation> {
  const node = await ctx.read(NODES, '', nodeName);
  if (!node) throw notFound(NODES, nodeName);
  try {
    return ctx.nodes.locate(node);
  } catch (e) {
    throw plainFailure(e instanceof Error ? e.message : String(e));
  }
}

/** `errors.NewGenericServerResponse`'s reason for a status code. */
function reasonOf(code: number): StatusReason {
  const reasons: Record<number, StatusReason> = {
    400: 'BadRequest',
    401: 'Unauthorized',
    403: 'Forbidden',
    404: 'NotFound',
    405: 'MethodNotAllowed',
    406: 'NotAcceptable',
    409: 'Conflict',
    415: 'UnsupportedMediaType',
    422: 'Invalid',
    429: 'TooManyRequests',
    503: 'ServiceUnavailable',
    504: 'Timeout',
  };
  return reasons[code] ?? (code >= 500 ? 'InternalError' : '');
}

/** How much of an error answer's body is read (`maxReadLength`). */
const MAX_ERROR_BODY = 50000;

async function errorBodyText(body: StreamedBody): Promise<string> {
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    parts.push(chunk);
    size += chunk.length;
    if (size >= MAX_ERROR_BODY) break;
  }
  body.cancel();
  return Buffer.concat(parts).subarray(0, MAX_ERROR_BODY).toString('utf8');
}

/**
 * `GenericHttpResponseChecker.Check`: an answer outside 200..206 becomes the API error of its
 * status (500 an internal error, 400 a bad request with the agent's text, any other the generic
 * server response naming `gr` and the object); undefined for a success.
 */
export async function agentResponseError(res: NodeAgentResponse, gr: GroupResource, name: string): Promise<ApiError | undefined> {
  if (res.status >= 200 && res.status <= 206) return undefined;
  const text = await errorBodyText(res.body);
  if (res.status === 500) return internalError(text);
  if (res.status === 400) return badRequest(text);
  const reason = reasonOf(res.status);
  const resource = gr.group ? `${gr.resource}.${gr.group}` : gr.resource;
  return new ApiError({
    code: res.status,
    ...(reason ? { reason } : {}),
    // The verb is empty in the checker's call: hence the space after the parenthesis.
    message: `${genericServerResponseMessage(res.status, text)} ( ${resource} ${name})`,
    details: { name, ...(gr.group ? { group: gr.group } : {}), kind: gr.resource },
  });
}
