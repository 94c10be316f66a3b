/**
 * What each well-known signer accepts (kube-controller-manager's `signer.go` and
 * `pkg/apis/certificates/helpers.go`), with their error messages: a kubelet client certificate
 * (`ValidateKubeletClientCSR`), a kubelet serving certificate (`ValidateKubeletServingCSR`), an API
 * server client certificate (`validAPIServerClientUsages`), and anything for `legacy-unknown`.
 */
import type { CertificateRequestInfo } from '../../pki/certificate-request.js';

/** The short names of the well-known signers, as `<reservedDomain>/<short name>`. */
export const WELL_KNOWN_SIGNERS = ['kube-apiserver-client', 'kube-apiserver-client-kubelet', 'kubelet-serving', 'legacy-unknown'] as const;

/**
 * The short name of a well-known signer (`<reservedDomain>/<short name>`): `kube-apiserver-client`, `kube-apiserver-client-kubelet`, `kubelet-serving` or `legacy-unknown`.
 * @category Certificates
 */
export type WellKnownSigner = (typeof WELL_KNOWN_SIGNERS)[number];

const sameSet = (a: ReadonlySet<string>, b: readonly string[]) => a.size === b.length && b.every((x) => a.has(x));
/** `sets.String.List()` of a set: sorted, printed by Go's %v as `[a b c]`. */
const goList = (values: readonly string[]) => `[${[...values].sort().join(' ')}]`;

const KUBELET_CLIENT_USAGES = ['digital signature', 'key encipherment', 'client auth'];
const KUBELET_CLIENT_USAGES_NO_RSA = ['digital signature', 'client auth'];
const KUBELET_SERVING_USAGES = ['digital signature', 'key encipherment', 'server auth'];
const KUBELET_SERVING_USAGES_NO_RSA = ['digital signature', 'server auth'];

const onlySystemNodes = (req: CertificateRequestInfo) => req.organizations.length === 1 && req.organizations[0] === 'system:nodes';

/** `ValidateKubeletClientCSR`: undefined when the request is a node's client certificate, else why not. */
export function kubeletClientError(req: CertificateRequestInfo, usages: readonly string[]): string | undefined {
  if (!onlySystemNodes(req)) return 'subject organization is not system:nodes';
  if (req.dnsNames.length) return 'DNS subjectAltNames are not allowed';
  if (req.emailAddresses.length) return 'Email subjectAltNames are not allowed';
  if (req.ipAddresses.length) return 'IP subjectAltNames are not allowed';
  if (req.uris.length) return 'URI subjectAltNames are not allowed';
  if (!req.commonName.startsWith('system:node:')) return 'subject common name does not begin with system:node:';
  const set = new Set(usages);
  if (!sameSet(set, KUBELET_CLIENT_USAGES) && !sameSet(set, KUBELET_CLIENT_USAGES_NO_RSA)) return `usages did not match ${goList(KUBELET_CLIENT_USAGES)}`;
  return undefined;
}

/** `ValidateKubeletServingCSR`: undefined when the request is a node's serving certificate, else why not. */
export function kubeletServingError(req: CertificateRequestInfo, usages: readonly string[]): string | undefined {
  if (!onlySystemNodes(req)) return 'subject organization is not system:nodes';
  if (req.dnsNames.length === 0 && req.ipAddresses.length === 0) return 'DNS or IP subjectAltName is required';
  if (req.emailAddresses.length) return 'Email subjectAltNames are not allowed';
  if (req.uris.length) return 'URI subjectAltNames are not allowed';
  const set = new Set(usages);
  if (!sameSet(set, KUBELET_SERVING_USAGES) && !sameSet(set, KUBELET_SERVING_USAGES_NO_RSA)) return `usages did not match ${goList(KUBELET_SERVING_USAGES)}`;
  if (!req.commonName.startsWith('system:node:')) return 'subject common name does not begin with system:node:';
  return undefined;
}

/** `validAPIServerClientUsages`: only digital signature and key encipherment besides the required client auth. */
export function apiServerClientError(usages: readonly string[]): string | undefined {
  let clientAuth = false;
  for (const u of usages) {
    if (u === 'digital signature' || u === 'key encipherment') continue;
    if (u === 'client auth') clientAuth = true;
    else return `invalid usage for client certificate: ${u}`;
  }
  return clientAuth ? undefined : 'missing required usage for client certificate: client auth';
}

/** Why the signer `signer` refuses the request; undefined when it signs it. */
export function signerValidationError(signer: WellKnownSigner, req: CertificateRequestInfo, usages: readonly string[]): string | undefined {
  switch (signer) {
    case 'kube-apiserver-client':
      return apiServerClientError(usages);
    case 'kube-apiserver-client-kubelet':
      return kubeletClientError(req, usages);
    case 'kubelet-serving':
      return kubeletServingError(req, usages);
    case 'legacy-unknown':
      // No restrictions, for compatibility with certificates/v1beta1.
      return undefined;
  }
}
