/**
 * Where a definition's conversion webhook is, as k8s.io/apiserver/pkg/util/webhook builds its
 * client (`ClientManager.hookClientConfig`) and kube-apiserver resolves a Service reference (its
 * default `ClusterIPServiceResolver`, k8s.io/apiserver/pkg/util/proxy `ResolveCluster`).
 *
 * memkube runs no pods, so no Service of a ClusterIP, NodePort or LoadBalancer type has an endpoint
 * to reach: a call to one fails as a call through kube-proxy to a Service without endpoints does,
 * `dial tcp <clusterIP>:<port>: connect: connection refused`. An ExternalName Service is dialed at
 * its external name, for real.
 */
import { goParseURL } from '../../../util/go-url.js';
import { fromBase64, parseCertificate, pemDecode } from '../../../pki/x509.js';
import { toPem } from '../../../pki/pem.js';
import type { WebhookEndpoint } from '../../../webhook/client.js';
import { joinHostPort } from '../../../webhook/go-errors.js';
import type { WebhookClientConfig } from '../../types/apiextensions-v1.js';
import type { Service } from '../../types/core-v1.js';
import { caBundleProblem } from '../crd/webhook-client.js';

/**
 * Reads a Service of the cluster (undefined when there is none).
 * @category Defining kinds
 */
export type ServiceReader = (namespace: string, name: string) => Promise<Service | undefined>;

/** The CA certificates of a `caBundle` as PEM (what `AppendCertsFromPEM` keeps); undefined for the default roots. */
function trustedCertificates(caBundle: string | undefined): string[] | undefined {
  let rest = fromBase64(caBundle);
  // A bundle of whitespace alone counts as none (webhookClientConfigForCRD).
  if (rest.trim() === '') return undefined;
  const pems: string[] = [];
  for (;;) {
    const [block, next] = pemDecode(rest);
    if (!block) break;
    rest = next;
    if (block.type !== 'CERTIFICATE' || Object.keys(block.headers).length) continue;
    if (parseCertificate(block.bytes)) pems.push(toPem('CERTIFICATE', block.bytes));
  }
  return pems;
}

/** The endpoint, or why the webhook client cannot be built (which the apiserver logs; requests then fail). */
export type EndpointOrProblem = { readonly endpoint: WebhookEndpoint } | { readonly problem: string };

/** `ResolveCluster` over the cluster's Services, then the dial memkube can make. */
async function resolveService(services: ServiceReader | undefined, namespace: string, name: string, port: number): Promise<{ host: string; port: number }> {
  const svc = await services?.(namespace, name);
  if (!svc) throw new Error(`service ${JSON.stringify(name)} not found`);
  const spec = svc.spec ?? {};
  const type = spec.type || 'ClusterIP';
  if (type === 'ClusterIP' && spec.clusterIP === 'None') throw new Error('cannot route to service with ClusterIP "None"');
  if (type === 'ClusterIP' || type === 'LoadBalancer' || type === 'NodePort') {
    const svcPort = (spec.ports ?? []).find((p) => p.port === port);
    if (!svcPort) throw new Error(`no service port ${port} found for service ${JSON.stringify(svc.metadata?.name ?? name)}`);
    // No endpoints in memkube: kube-proxy refuses connections to the cluster IP.
    throw new Error(`dial tcp ${joinHostPort(spec.clusterIP ?? '', svcPort.port)}: connect: connection refused`);
  }
  if (type === 'ExternalName') return { host: spec.externalName ?? '', port };
  throw new Error(`unsupported service type ${JSON.stringify(type)}`);
}

/** The webhook endpoint a client configuration names. */
export function webhookEndpoint(config: WebhookClientConfig | undefined, services: ServiceReader | undefined): EndpointOrProblem {
  const caBundle = config?.caBundle;
  if (caBundle !== undefined && fromBase64(caBundle).trim() !== '') {
    const problem = caBundleProblem(caBundle);
    if (problem) return { problem };
  }
  const ca = trustedCertificates(caBundle);
  const service = config?.service;
  if (service) {
    const port = service.port ?? 443;
    const serverName = `${service.name}.${service.namespace}.svc`;
    return {
      endpoint: {
        url: `https://${joinHostPort(serverName, port)}${service.path ?? ''}`,
        serverName,
        dial: () => resolveService(services, service.namespace, service.name, port),
        ...(ca ? { ca } : {}),
      },
    };
  }
  const url = config?.url;
  if (!url) return { problem: 'webhook configuration must have either service or URL' };
  const parsed = goParseURL(url);
  if (!parsed.ok) return { problem: `Unparsable URL: ${parsed.error}` };
  return { endpoint: { url, ...(ca ? { ca } : {}) } };
}
