/**
 * The `spec.caBundle` format rule of APIService: a PEM bundle of CA certificates.
 *
 * Kubernetes v1.36 itself does not check the bundle's content (a wrong bundle only fails later, when
 * the aggregator dials the service); memkube enforces a PEM CA bundle at write time (a
 * departure). The message is memkube's own wording: upstream has none for it.
 */
import { fieldError, type FieldError } from '../../machinery/field-errors.js';
import { fromBase64, pemDecode } from '../../pki/x509.js';

/** The detail of a caBundle that is not a PEM bundle of certificates (memkube's wording, see above). */
export const CA_BUNDLE_NOT_PEM_MSG = 'must be a PEM-encoded CA bundle';

const CERTIFICATE_BLOCK = 'CERTIFICATE';

/**
 * True when `bytes` (the decoded bundle, one character per byte) holds at least one PEM block and
 * every block is a `CERTIFICATE` block. Text around the blocks is skipped, as Go's `pem.Decode`
 * (and so the aggregator reading the bundle) skips it.
 */
export function isPemCertificateBundle(bytes: string): boolean {
  // pemDecode scans linearly (as Go's pem.Decode since 1.25.2), so a hostile bundle stays cheap.
  let rest = bytes;
  let blocks = 0;
  for (;;) {
    const [block, next] = pemDecode(rest);
    if (!block) return blocks > 0;
    if (block.type !== CERTIFICATE_BLOCK) return false;
    blocks++;
    rest = next;
  }
}

/**
 * Checks a stored (base64) `caBundle`: an empty or absent one passes; any other must decode to a PEM
 * bundle of certificates. The bad value is not shown (it can be large and is binary).
 */
export function validateCABundle(caBundle: string | undefined, path: string): FieldError[] {
  const bytes = fromBase64(caBundle);
  if (bytes.length === 0 || isPemCertificateBundle(bytes)) return [];
  return [fieldError.invalid(path, undefined, CA_BUNDLE_NOT_PEM_MSG)];
}
