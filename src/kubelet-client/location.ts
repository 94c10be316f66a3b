/**
 * Where a node's agent listens, read from its Node object as kube-apiserver's
 * `NodeConnectionInfoGetter` reads it (pkg/kubelet/client/kubelet_client.go): the first address of
 * the first preferred type (pkg/util/node `GetPreferredNodeAddress`), the port the node reports in
 * `status.daemonEndpoints.kubeletEndpoint.Port`, else the default.
 */
import type { NodeLocation } from '../machinery/node-connections.js';

interface NodeAddress {
  type?: unknown;
  address?: unknown;
}

function addressesOf(node: unknown): NodeAddress[] {
  const status = (node as { status?: { addresses?: unknown } } | undefined)?.status;
  return Array.isArray(status?.addresses) ? (status.addresses as NodeAddress[]) : [];
}

function reportedPort(node: unknown): number {
  const port = (node as { status?: { daemonEndpoints?: { kubeletEndpoint?: { Port?: unknown } } } } | undefined)?.status?.daemonEndpoints?.kubeletEndpoint
    ?.Port;
  return typeof port === 'number' && Number.isInteger(port) ? port : 0;
}

/** Go's `%v` of a `[]v1.NodeAddress`: `[{InternalIP 10.0.0.1} {Hostname n1}]`. */
function goAddressList(addresses: NodeAddress[]): string {
  return `[${addresses.map((a) => `{${String(a.type ?? '')} ${String(a.address ?? '')}}`).join(' ')}]`;
}

/** The agent's location on a node; throws Kubernetes' error when no address has a preferred type. */
export function locateAgent(node: unknown, preferredTypes: readonly string[], defaultPort: number): NodeLocation {
  const addresses = addressesOf(node);
  for (const type of preferredTypes) {
    const found = addresses.find((a) => a.type === type && typeof a.address === 'string');
    if (found) {
      const port = reportedPort(node);
      return { scheme: 'https', host: found.address as string, port: String(port > 0 ? port : defaultPort), agent: true };
    }
  }
  throw new Error(`no preferred addresses found; known addresses: ${goAddressList(addresses)}`);
}
