/** The certificates group's kinds. */
import type { KindDefinition } from '../../schema/define-kind.js';
import { CertificateSigningRequestKind } from './certificate-signing-request.js';
import { ClusterTrustBundleKind } from './cluster-trust-bundle.js';
import { PodCertificateRequestKind } from './pod-certificate-request.js';

export { CertificateSigningRequestKind, type CertificateSigningRequest } from './certificate-signing-request.js';
export { PodCertificateRequestKind, type PodCertificateRequest } from './pod-certificate-request.js';
export { ClusterTrustBundleKind, CLUSTER_TRUST_BUNDLE, type ClusterTrustBundle } from './cluster-trust-bundle.js';

/** Every kind of `certificates.{api_domain}`, in the order the registry serves them. */
export const certificatesKinds: readonly KindDefinition[] = [CertificateSigningRequestKind, PodCertificateRequestKind, ClusterTrustBundleKind];
