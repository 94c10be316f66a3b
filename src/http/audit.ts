/**
 * The HTTP door's part of audit (k8s.io/apiserver `endpoints/filters/audit.go`, `audit_init.go`,
 * `authn_audit.go`): what the door tells the audit pipeline of a request, the answer to a request
 * whose RequestReceived event a backend refused, and the last events of an answer — at once for
 * an encoded answer, when the stream ends for a watch or another streamed answer.
 */
import { NOT_AUDITED, RequestAudit, type AuditRequestInit } from '../audit/request-audit.js';
import { AUDIT_STORE_FAILED, AuditRejectedError, type AuditPipeline } from '../audit/pipeline.js';
import { sourceIPs } from '../audit/source-ips.js';
import type { AuditAttributes } from '../audit/evaluate.js';
import { ApiError, compactStatus, type Status } from '../machinery/errors.js';
import type { ApiRequest, RequestAuditRecorder } from '../machinery/request.js';
import { isEncodedAnswer, textAnswer, type EncodedAnswer } from './encode.js';

/** What the door's audit reads of a request (a part of the handler's `HttpRequest`). */
interface AuditedHttpRequest {
  readonly url: URL;
  header(name: string): string | null;
  readonly remoteAddress?: string;
  readonly clientCertificate?: object;
}

/** An answer of the handler: encoded, or a Fetch `Response`. */
type HttpAnswer = Response | EncodedAnswer;

/** What the audit of an HTTP request starts from. */
export function httpAuditInit(
  request: AuditedHttpRequest,
  auditID: string,
  receivedAt: number,
  requestURI: string,
  attributes: AuditAttributes,
): AuditRequestInit {
  const userAgent = request.header('user-agent');
  return {
    auditID,
    receivedAt,
    requestURI,
    attributes,
    sourceIPs: sourceIPs((name) => request.header(name), request.remoteAddress),
    ...(userAgent ? { userAgent } : {}),
  };
}

/**
 * Begins a request's audit and sends its RequestReceived event; throws {@link AuditRejectedError}
 * when a backend refused it. Undefined when the policy does not audit the request.
 */
export async function beginHttpAudit(pipeline: AuditPipeline, init: AuditRequestInit): Promise<RequestAudit | undefined> {
  const audit = pipeline.begin(init);
  if (!audit) return undefined;
  const kept = audit.received();
  if (kept === false || (kept !== true && !(await kept))) throw new AuditRejectedError();
  return audit;
}

/** What the engine call of an HTTP request carries: its audit, or the mark that it is not audited (never audited twice). */
export function attachAudit(req: ApiRequest, audit: RequestAuditRecorder | undefined): void {
  if (!audit) return;
  req.audit = audit;
  if (audit instanceof RequestAudit) audit.request(req);
}

/** The recorder the door hands the engine when auditing is on: the request's audit, or none-but-marked. */
export function recorderOf(pipeline: AuditPipeline | undefined, audit: RequestAudit | undefined): RequestAuditRecorder | undefined {
  return audit ?? (pipeline ? NOT_AUDITED : undefined);
}

/** `getAuthMethods`: what a request refused by authentication tried, as its event's message says. */
export function authenticationMethods(request: AuditedHttpRequest): string {
  const methods: string[] = [];
  const authorization = (request.header('authorization') ?? '').trim();
  if (/^basic /i.test(authorization)) methods.push('basic');
  const parts = authorization.split(' ');
  if (parts.length > 1 && parts[0]!.toLowerCase() === 'bearer') methods.push('bearer');
  if ((request.url.searchParams.get('access_token') ?? '').trim()) methods.push('access_token');
  if (request.clientCertificate) methods.push('x509');
  return methods.length ? `Authentication failed, attempted: ${methods.join(', ')}` : 'Authentication failed, no credentials provided';
}

/**
 * `responsewriters.InternalError` of a request whose RequestReceived event was not stored: a
 * plain-text 500 naming the request.
 */
export function auditRejectedAnswer(requestURI: string): EncodedAnswer {
  const text = `Internal Server Error: ${JSON.stringify(requestURI)}: ${AUDIT_STORE_FAILED}`.replace(
    /[&<>]/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]!,
  );
  return textAnswer(500, `${text}\n`, 'text/plain; charset=utf-8', new Headers({ 'x-content-type-options': 'nosniff' }));
}

export { AuditRejectedError };

function isStatus(value: unknown): value is Status {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'Status';
}

/**
 * Sends the last events of an answered request and answers what to send: an encoded answer as it
 * is (ResponseComplete now; ResponseStarted before it for a long-running request), a streamed
 * answer with its body watched so that ResponseComplete comes when it ends or the client leaves.
 * `failure` is what was thrown: an error that is not an API error ends the request with Panic.
 */
export async function finishHttpAudit(audit: RequestAudit, answer: HttpAnswer, failure: unknown): Promise<HttpAnswer> {
  if (failure !== undefined && !(failure instanceof ApiError)) {
    await audit.panic(failure);
    return answer;
  }
  if (isEncodedAnswer(answer)) {
    const body = answer.value;
    const status = failure instanceof ApiError ? compactStatus(failure.status) : isStatus(body) ? body : undefined;
    // The Status is known before the header is written, so a long-running request's ResponseStarted has it too.
    if (audit.longRunning) await audit.started(answer.status, status);
    await audit.complete({ code: answer.status, status, body });
    return answer;
  }
  if (audit.longRunning) await audit.started(answer.status);
  if (!answer.body) {
    await audit.complete({ code: answer.status });
    return answer;
  }
  return new Response(
    completingStream(answer.body, () => void audit.complete({ code: answer.status })),
    {
      status: answer.status,
      statusText: answer.statusText,
      headers: answer.headers,
    },
  );
}

/** `body`, calling `done` once when it ends, fails, or its reader cancels it. */
function completingStream(body: ReadableStream<Uint8Array>, done: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    done();
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const { done: finished, value } = await reader.read();
          if (finished) {
            controller.close();
            end();
          } else controller.enqueue(value);
        } catch (e) {
          controller.error(e);
          end();
        }
      },
      async cancel(reason) {
        end();
        await reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}
