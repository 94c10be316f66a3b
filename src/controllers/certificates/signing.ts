/**
 * The CSR signing controllers (kube-controller-manager's `csrsigning`,
 * `pkg/controller/certificates/signer/signer.go`): an approved, not failed request for one of the
 * well-known signers gets a certificate from that signer's CA, written to `status.certificate`
 * through `/status`. A request the signer's rules refuse gets a `Failed` condition with reason
 * `SignerValidationFailure` and the rule's message instead.
 */
import type { EngineContext } from '../../api/context.js';
import { isApiError } from '../../machinery/errors.js';
import { readCertificateRequest, checkRequestSignature } from '../../pki/certificate-request.js';
import { signCertificateRequest } from '../../pki/sign-request.js';
import type { CertificateSigningRequest } from '../../kinds/types/certificates-v1.js';
import type { StorageEvent } from '../../storage/storage.js';
import type { Controller } from '../controller-loop.js';
import { approvalOf, csrBucket, csrResource, hasTrueCondition, observedCsr, readCsr, requestPem, type Send } from './csr-common.js';
import { signerValidationError, WELL_KNOWN_SIGNERS, type WellKnownSigner } from './signer-rules.js';
import type { SigningAuthorities } from './signing-authorities.js';

const BACKDATE_MS = 5 * 60_000;
const SHORT_MS = 8 * 3_600_000;
/** The shortest certificate issued (twice the backdate), whatever `expirationSeconds` asks. */
const MIN_DURATION_MS = 10 * 60_000;

/** `signer.duration`: the requested duration within [10 minutes, the cluster signing duration]. */
export function certificateDuration(expirationSeconds: number | undefined, maxMs: number): number {
  if (expirationSeconds === undefined) return maxMs;
  const requested = expirationSeconds * 1000;
  if (requested > maxMs) return maxMs;
  if (requested < MIN_DURATION_MS) return MIN_DURATION_MS;
  return requested;
}

/** Which well-known signer a signer name is, for this reserved domain. */
function wellKnown(signerName: string | undefined, reservedDomain: string): WellKnownSigner | undefined {
  const prefix = `${reservedDomain}/`;
  if (!signerName?.startsWith(prefix)) return undefined;
  const short = signerName.slice(prefix.length);
  return (WELL_KNOWN_SIGNERS as readonly string[]).includes(short) ? (short as WellKnownSigner) : undefined;
}

/** Creates the signing controller of the well-known signers. */
export function csrSigningController(ctx: EngineContext, send: Send, authorities: SigningAuthorities): Controller {
  const writeStatus = async (csr: CertificateSigningRequest) => {
    try {
      await send({ verb: 'update', resource: csrResource(ctx), name: csr.metadata?.name, subresource: 'status', body: csr });
    } catch (e) {
      // Deleted meanwhile: nothing to sign. A conflict is retried with the new state.
      if (!isApiError(e, 'NotFound')) throw e;
    }
  };
  return {
    name: 'csrsigning',
    addsFrom: (bucket) => bucket === csrBucket(ctx),
    keepsOnlyObserved: true,
    observe: (event: StorageEvent) => observedCsr(ctx, event),
    async reconcile(name: string): Promise<void> {
      const csr = await readCsr(ctx, name);
      if (!csr || csr.status?.certificate) return;
      const { approved, denied } = approvalOf(csr);
      if (!approved || denied || hasTrueCondition(csr, 'Failed')) return;
      const signer = wellKnown(csr.spec.signerName, ctx.reservedDomain);
      if (!signer || !authorities.signs(signer)) return;
      const request = readCertificateRequest(requestPem(csr));
      if (typeof request === 'string') throw new Error(`unable to parse csr ${JSON.stringify(name)}: ${request}`);
      const usages = csr.spec.usages ?? [];
      const refusal = signerValidationError(signer, request, usages);
      const next = structuredClone(csr) as CertificateSigningRequest;
      if (refusal) {
        const now = new Date(Math.floor(ctx.clock.now() / 1000) * 1000).toISOString().replace('.000Z', 'Z');
        next.status = {
          ...next.status,
          conditions: [
            ...(next.status?.conditions ?? []),
            { type: 'Failed', status: 'True', reason: 'SignerValidationFailure', message: refusal, lastUpdateTime: now },
          ],
        };
        await writeStatus(next);
        return;
      }
      const badSignature = checkRequestSignature(request);
      if (badSignature) throw new Error(`error auto signing csr: unable to verify certificate request signature: ${badSignature}`);
      const ca = await authorities.caFor(signer);
      if (!ca) return;
      const pem = await signCertificateRequest(ca, request, {
        ttlMs: certificateDuration(csr.spec.expirationSeconds, authorities.durationMs),
        usages,
        backdateMs: BACKDATE_MS,
        shortMs: SHORT_MS,
        now: ctx.clock.now(),
      });
      next.status = { ...next.status, certificate: Buffer.from(pem).toString('base64') };
      await writeStatus(next);
    },
  };
}
