/**
 * The CAs the CSR signing controllers sign with, from kube-controller-manager's flags
 * (`--cluster-signing-cert-file`, `--cluster-signing-key-file`, or per signer
 * `--cluster-signing-kubelet-client-cert-file` and friends) or, when none is given, one CA made in
 * process when first needed and shared by every well-known signer.
 */
import { generateCertificateAuthority, loadSigningCa, SigningCaError, type CertificateAndKey, type SigningCa } from '../../pki/self-signed.js';
import { WELL_KNOWN_SIGNERS, type WellKnownSigner } from './signer-rules.js';

/**
 * A CA as PEM texts (what the flags' files hold).
 * @category Certificates
 */
export interface SigningCaFiles {
  /** PEM certificate of the CA. */
  readonly caCert: string;
  /** PEM private key of the CA (PKCS#8, SEC 1 or PKCS#1; ECDSA or RSA). */
  readonly caKey: string;
}

/**
 * `createCluster({ certificateSigning })`: kube-controller-manager's CSR signing settings.
 * @category Certificates
 */
export interface CertificateSigningOptions extends Partial<SigningCaFiles> {
  /**
   * Per-signer CAs (`--cluster-signing-kubelet-serving-cert-file`, ...-kubelet-client-...,
   * ...-kube-apiserver-client-..., ...-legacy-unknown-...). They may not be combined with
   * `caCert`/`caKey`; a signer without one then does not sign, as kube-controller-manager skips it.
   */
  readonly signers?: Partial<Record<WellKnownSigner, SigningCaFiles>>;
  /** `--cluster-signing-duration`: the longest certificate issued, in ms; 8760h (a year) by default. */
  readonly durationMs?: number;
}

/** One year, kube-controller-manager's `--cluster-signing-duration` default. */
export const DEFAULT_SIGNING_DURATION_MS = 8760 * 3_600_000;

/** The CAs of the well-known signers. */
export interface SigningAuthorities {
  /** The longest certificate issued, in ms. */
  readonly durationMs: number;
  /** The CA of a signer, made first if it is the generated one; undefined when the signer does not sign. */
  caFor(signer: WellKnownSigner): Promise<SigningCa | undefined>;
  /** Whether the signer has a CA (without making one). */
  signs(signer: WellKnownSigner): boolean;
}

/**
 * Checks the options as kube-controller-manager checks its flags and reads the given CAs; throws a
 * {@link SigningCaError} with the reason.
 */
export async function signingAuthorities(options: CertificateSigningOptions = {}, now: () => number = Date.now): Promise<SigningAuthorities> {
  const durationMs = options.durationMs ?? DEFAULT_SIGNING_DURATION_MS;
  if (!Number.isFinite(durationMs) || durationMs <= 0) throw new SigningCaError(`the cluster signing duration must be positive, not ${durationMs}ms`);
  const general = options.caCert !== undefined || options.caKey !== undefined;
  const perSigner = Object.entries(options.signers ?? {}).filter(([, files]) => files !== undefined);
  if (general && perSigner.length) {
    throw new SigningCaError('cannot specify --cluster-signing-{cert,key}-file and other --cluster-signing-*-file flags at the same time');
  }
  if (general && (!options.caCert || !options.caKey)) throw new SigningCaError('the cluster signing CA needs both a certificate and a key');
  const loaded = new Map<WellKnownSigner, SigningCa>();
  if (general) {
    const ca = await loadSigningCa({ cert: options.caCert!, key: options.caKey! });
    for (const s of WELL_KNOWN_SIGNERS) loaded.set(s, ca);
  }
  for (const [signer, files] of perSigner) {
    if (!(WELL_KNOWN_SIGNERS as readonly string[]).includes(signer)) throw new SigningCaError(`unknown signer ${JSON.stringify(signer)}`);
    loaded.set(signer as WellKnownSigner, await loadSigningCa({ cert: files!.caCert, key: files!.caKey }));
  }
  // Nothing configured: one CA of our own, made when first asked for.
  let generated: Promise<SigningCa> | undefined;
  const generate = () =>
    (generated ??= generateCertificateAuthority({ commonName: `memkube-signer-ca@${Math.floor(now() / 1000)}`, now: now() }).then((ca: CertificateAndKey) =>
      loadSigningCa(ca),
    ));
  const configured = general || perSigner.length > 0;
  return {
    durationMs,
    signs: (signer) => !configured || loaded.has(signer),
    caFor: async (signer) => (configured ? loaded.get(signer) : generate()),
  };
}
