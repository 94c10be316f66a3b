/**
 * How the API server reaches a node's agent (the kubelet): the contract the Pod's `log` and the
 * Node's `proxy` subresources are written against. The implementation (src/kubelet-client/) holds
 * kube-apiserver's `--kubelet-*` settings: which node address to use, the client certificate it
 * presents and the authority it trusts.
 */
import type { StreamedBody } from './request.js';

/**
 * Where a node's agent listens: `https://<host>:<port>` (pkg/kubelet/client `ConnectionInfo`).
 * @category Node agent
 */
export interface NodeLocation {
  readonly scheme: 'http' | 'https';
  /** The node address chosen by the preferred address types. */
  readonly host: string;
  readonly port: string;
  /**
   * True for the agent's own port: the request goes with the API server's client certificate and
   * the configured authority; false for another port of the node, reached without them.
   */
  readonly agent: boolean;
}

/**
 * One request to a node's agent.
 * @category Node agent
 */
export interface NodeAgentRequest {
  readonly method: string;
  /** The path, absolute, cleaned and escaped (`/containerLogs/default/web/app`). */
  readonly path: string;
  /** The query without its `?`, already encoded; none when empty. */
  readonly query?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: Uint8Array;
  /** Skip checking the agent's serving certificate (`insecureSkipTLSVerifyBackend`). */
  readonly insecureSkipTLSVerify?: boolean;
}

/**
 * The agent's answer, its body still streaming.
 * @category Node agent
 */
export interface NodeAgentResponse {
  readonly status: number;
  /** The response headers, lower-cased names (several values joined with `, `). */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: StreamedBody;
}

/**
 * The API server's client of node agents.
 * @category Node agent
 */
export interface NodeConnections {
  /**
   * The agent's location from a Node object (its `status.addresses` and
   * `status.daemonEndpoints.kubeletEndpoint.Port`). Throws an `Error` worded as Kubernetes'
   * (`no preferred addresses found; known addresses: [...]`) when no address has a preferred type.
   */
  locate(node: unknown): NodeLocation;
  /**
   * Sends a request and resolves once the answer's headers arrived, whatever its status. Rejects
   * with an `Error` whose message is Go's transport failure (`dial tcp 127.0.0.1:10250: connect:
   * connection refused`, `tls: failed to verify certificate: ...`), without the `Get "<url>": ` an
   * HTTP client puts before it. `signal` aborts the request, before or after the answer began.
   */
  send(location: NodeLocation, request: NodeAgentRequest, signal?: AbortSignal): Promise<NodeAgentResponse>;
}

/** The URL of a request to a node's agent, as Go's `url.URL.String()` prints it. */
export function nodeAgentUrl(location: NodeLocation, request: Pick<NodeAgentRequest, 'path' | 'query'>): string {
  const host = location.host.includes(':') ? `[${location.host}]` : location.host;
  return `${location.scheme}://${host}:${location.port}${request.path}${request.query ? `?${request.query}` : ''}`;
}
