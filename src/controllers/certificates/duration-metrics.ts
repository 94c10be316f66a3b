/**
 * kube-apiserver's CSR duration counters (`pkg/registry/certificates/certificates/storage/metrics.go`),
 * counted when a certificate is first written to a request that asked for a duration
 * (`spec.expirationSeconds`): `apiserver_certificates_registry_csr_requested_duration_total`
 * always, `apiserver_certificates_registry_csr_honored_duration_total` when the issued
 * certificate's lifetime is within 5 minutes plus 5% of the asked one. Both are labelled with the
 * signer name, or `other` for a signer outside `kubernetes.io/`. Counted from committed changes,
 * so failed and dry-run writes never count, as upstream's finish function skips them.
 */
import type { CounterMetric, MetricsRegistry } from '../../metrics/registry.js';
import { parseCertificate, pemDecode } from '../../pki/x509.js';
import type { StorageEvent } from '../../storage/storage.js';
import type { CertificateSigningRequest } from '../../kinds/types/certificates-v1.js';

/** Counted for every certificate issued to a request with `spec.expirationSeconds`. */
export const CSR_REQUESTED_DURATION_TOTAL = 'apiserver_certificates_registry_csr_requested_duration_total';
/** Counted when the issued certificate's lifetime honours the requested one. */
export const CSR_HONORED_DURATION_TOTAL = 'apiserver_certificates_registry_csr_honored_duration_total';

/** The two counters, declared in a cluster's registry. */
export interface CsrDurationCounters {
  /** `apiserver_certificates_registry_csr_requested_duration_total`. */
  readonly requested: CounterMetric<'signerName'>;
  /** `apiserver_certificates_registry_csr_honored_duration_total`. */
  readonly honored: CounterMetric<'signerName'>;
}

/** Declares the two counters (ALPHA, labelled `signerName`) with upstream's help texts. */
export function csrDurationCounters(metrics: MetricsRegistry): CsrDurationCounters {
  return {
    requested: metrics.counter({
      name: CSR_REQUESTED_DURATION_TOTAL,
      help: 'Total number of issued CSRs with a requested duration, sliced by signer (only kubernetes.io signer names are specifically identified)',
      stability: 'ALPHA',
      labelNames: ['signerName'],
    }),
    honored: metrics.counter({
      name: CSR_HONORED_DURATION_TOTAL,
      help: 'Total number of issued CSRs with a requested duration that was honored, sliced by signer (only kubernetes.io signer names are specifically identified)',
      stability: 'ALPHA',
      labelNames: ['signerName'],
    }),
  };
}

/** `isDurationHonored`: within the short-lived backdate (5 minutes) plus 5% of what was asked. */
export function isDurationHonored(wantMs: number, gotMs: number): boolean {
  return Math.abs(wantMs - gotMs) < 5 * 60_000 + wantMs / 20;
}

/** `compressSignerName`: a `kubernetes.io/` signer by name, any other as `other`. */
const signerLabel = (name: string | undefined) => (name?.startsWith('kubernetes.io/') ? name : 'other');

/** Counts one committed change of the CSR bucket `bucket`; other changes are ignored. */
export function countCsrDuration(counters: CsrDurationCounters, bucket: string, event: StorageEvent): void {
  if (event.type !== 'MODIFIED' || event.bucket !== bucket) return;
  const old = event.previous as CertificateSigningRequest | undefined;
  const csr = event.object as CertificateSigningRequest;
  if (!old || old.status?.certificate || !csr.status?.certificate) return;
  if (old.spec?.expirationSeconds === undefined || old.spec.expirationSeconds === null) return;
  const labels = { signerName: signerLabel(old.spec.signerName) };
  counters.requested.inc(labels);
  const [block] = pemDecode(Buffer.from(csr.status.certificate, 'base64').toString('latin1'));
  const cert = block?.type === 'CERTIFICATE' ? parseCertificate(block.bytes) : undefined;
  if (!cert) return;
  const got = cert.notAfter.value.getTime() - cert.notBefore.value.getTime();
  if (isDurationHonored(old.spec.expirationSeconds * 1000, got)) counters.honored.inc(labels);
}
