/** ClusterTrustBundle (certificates v1beta1, v1alpha1; cluster-scoped; gate ClusterTrustBundle). */
import { fieldError, type FieldError } from '../../machinery/field-errors.js';
import { defineKind } from '../../schema/define-kind.js';
import { nameIsDNSSubdomain } from '../../schema/validation/names.js';
import { basicConstraints, parseCertificate, pemDecode } from '../../pki/x509.js';
import { ClusterTrustBundle as V1Alpha1 } from '../types/certificates-v1alpha1.js';
import { ClusterTrustBundle as V1Beta1 } from '../types/certificates-v1beta1.js';
import { validateSignerName } from './validation.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** A ClusterTrustBundle object (v1beta1 and v1alpha1 have the same shape). */
export type ClusterTrustBundle = V1Beta1;

/** The feature gate of ClusterTrustBundle. */
export const CLUSTER_TRUST_BUNDLE = 'ClusterTrustBundle';
/** `MaxTrustBundleSize`: 1 MiB. */
const MAX_TRUST_BUNDLE_SIZE = 1024 * 1024;
const OMITTED = '<value omitted>';

/** `validateTrustBundle`: CA certificates in PEM, without headers, at least one, no duplicates. */
function validateTrustBundle(bundle: string, path: string): FieldError[] {
  if (bundle.length > MAX_TRUST_BUNDLE_SIZE) return [fieldError.tooLong(path, MAX_TRUST_BUNDLE_SIZE)];
  const errors: FieldError[] = [];
  const seen = new Map<string, number[]>();
  let rest = bundle;
  for (let i = 0; ; i++) {
    const [block, tail] = pemDecode(rest);
    if (!block) break;
    rest = tail;
    if (block.type !== 'CERTIFICATE') {
      errors.push(fieldError.invalid(path, OMITTED, `entry ${i} has bad block type: ${block.type}`));
      continue;
    }
    if (Object.keys(block.headers).length) {
      errors.push(fieldError.invalid(path, OMITTED, `entry ${i} has PEM block headers`));
      continue;
    }
    const cert = parseCertificate(block.bytes);
    if (!cert) {
      errors.push(fieldError.invalid(path, OMITTED, `entry ${i} does not parse as X.509`));
      continue;
    }
    const bc = basicConstraints(cert);
    if (!bc.isCA) {
      errors.push(fieldError.invalid(path, OMITTED, `entry ${i} does not have the CA bit set`));
      continue;
    }
    if (!bc.valid) {
      errors.push(fieldError.invalid(path, OMITTED, `entry ${i} has invalid basic constraints`));
      continue;
    }
    const k = Buffer.from(block.bytes).toString('base64');
    seen.set(k, [...(seen.get(k) ?? []), i]);
  }
  // A malformed block is reported alone, without duplicates.
  if (errors.length) return errors;
  if (seen.size === 0) return [fieldError.invalid(path, OMITTED, 'at least one trust anchor must be provided')];
  for (const indices of seen.values())
    if (indices.length > 1) errors.push(fieldError.invalid(path, OMITTED, `duplicate trust anchor (indices [${indices.join(' ')}])`));
  return errors;
}

/**
 * `ValidateClusterTrustBundle`: the name follows the signer name (the rest of it, a DNS subdomain,
 * is checked by the kind's name validator); signer name and bundle rules.
 */
function validateBundle(ctb: ClusterTrustBundle): FieldError[] {
  const name = ctb.metadata?.name ?? '';
  const signer = ctb.spec?.signerName ?? '';
  const errors: FieldError[] = [];
  if (signer !== '') {
    const prefix = `${signer.replaceAll('/', ':')}:`;
    if (!name.startsWith(prefix))
      errors.push(fieldError.invalid('metadata.name', name, `ClusterTrustBundle for signerName ${signer} must be named with prefix ${prefix}`));
    errors.push(...validateSignerName('spec.signerName', signer));
  } else if (name.includes(':')) {
    errors.push(fieldError.invalid('metadata.name', name, 'ClusterTrustBundle without signer name must not have ":" in its name'));
  }
  errors.push(...validateTrustBundle(ctb.spec?.trustBundle ?? '', 'spec.trustBundle'));
  return errors;
}

/**
 * ClusterTrustBundle: a bundle of CA certificates for a signer (or none); its name starts with the
 * signer name (`/` as `:`) and a `:`; the signer name is immutable. Served at v1beta1 (storage) and
 * v1alpha1, which share one shape.
 */
export const ClusterTrustBundleKind = defineKind<ClusterTrustBundle>({
  group: 'certificates.{api_domain}',
  kind: 'ClusterTrustBundle',
  plural: 'clustertrustbundles',
  scope: 'Cluster',
  featureGate: CLUSTER_TRUST_BUNDLE,
  // No generation: pkg/registry/certificates/clustertrustbundle/strategy.go never sets it.
  generation: false,
  versions: [lazyVersion('v1beta1', V1Beta1, { storage: true }), lazyVersion('v1alpha1', V1Alpha1 as unknown as typeof V1Beta1)],
  // The name is checked after the signer-name prefix (`example.com:foo:`), which holds colons.
  nameValidator: (name, prefix) => nameIsDNSSubdomain(name.includes(':') ? name.slice(name.lastIndexOf(':') + 1) : name, prefix),
  schemaRequired: false,
  immutableFields: [{ path: 'spec.signerName', zero: '' }],
  printerColumns: [
    {
      name: 'SignerName',
      type: 'string',
      description:
        "signerName indicates the associated signer, if any.\n\nIn order to create or update a ClusterTrustBundle that sets signerName, you must have the following cluster-scoped permission: group=certificates.k8s.io resource=signers resourceName=<the signer name> verb=attest.\n\nIf signerName is not empty, then the ClusterTrustBundle object must be named with the signer name as a prefix (translating slashes to colons). For example, for the signer name `example.com/foo`, valid ClusterTrustBundle object names include `example.com:foo:abc` and `example.com:foo:v1`.\n\nIf signerName is empty, then the ClusterTrustBundle object's name must not have such a prefix.\n\nList/watch requests for ClusterTrustBundles can filter on this field using a `spec.signerName=NAME` field selector.",
      value: (b) => b.spec?.signerName ?? '',
    },
  ],
  selectableFields: { 'spec.signerName': (b) => b.spec?.signerName ?? '' },
  metadataFieldSelectors: ['metadata.name'],
  strategy: {
    defaults(ctb) {
      ctb.spec ??= { trustBundle: '' };
    },
    validate: validateBundle,
  },
});
