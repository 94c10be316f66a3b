/**
 * The CSR approving controller (kube-controller-manager's `csrapproving`,
 * `pkg/controller/certificates/approver/sarapprove.go`): a pending request for the
 * `kube-apiserver-client-kubelet` signer that is a node's client certificate is approved when a
 * SubjectAccessReview says its requester may `create` `certificatesigningrequests/selfnodeclient`
 * (renewing its own certificate: the common name is the requester) or
 * `certificatesigningrequests/nodeclient` (any node's, as a bootstrap token may). Any other
 * request is left for a person or another approver.
 */
import type { EngineContext } from '../../api/context.js';
import { isApiError } from '../../machinery/errors.js';
import { readCertificateRequest, type CertificateRequestInfo } from '../../pki/certificate-request.js';
import type { CertificateSigningRequest } from '../../kinds/types/certificates-v1.js';
import type { StorageEvent } from '../../storage/storage.js';
import type { Controller } from '../controller-loop.js';
import { approvalOf, csrBucket, csrResource, observedCsr, readCsr, requestPem, type Send } from './csr-common.js';
import { kubeletClientError } from './signer-rules.js';

interface Recognizer {
  /** Whether the request is of this kind. */
  recognize(csr: CertificateSigningRequest, request: CertificateRequestInfo): boolean;
  /** The subresource of `certificatesigningrequests` the requester must be allowed to create. */
  subresource: string;
  message: string;
}

/** Creates the approving controller. */
export function csrApprovingController(ctx: EngineContext, send: Send): Controller {
  const kubeletSigner = `${ctx.reservedDomain}/kube-apiserver-client-kubelet`;
  const isNodeClient = (csr: CertificateSigningRequest, request: CertificateRequestInfo) =>
    csr.spec.signerName === kubeletSigner && kubeletClientError(request, csr.spec.usages ?? []) === undefined;
  // Tried in this order, as upstream's recognizers.
  const recognizers: Recognizer[] = [
    {
      recognize: (csr, request) => csr.spec.username === request.commonName && isNodeClient(csr, request),
      subresource: 'selfnodeclient',
      message: 'Auto approving self kubelet client certificate after SubjectAccessReview.',
    },
    {
      recognize: isNodeClient,
      subresource: 'nodeclient',
      message: 'Auto approving kubelet client certificate after SubjectAccessReview.',
    },
  ];

  /** Asks the cluster's authorizer, through a SubjectAccessReview, about the requester of `csr`. */
  const allowed = async (csr: CertificateSigningRequest, subresource: string): Promise<boolean> => {
    const res = await send({
      verb: 'create',
      resource: { group: `authorization.${ctx.apiDomain}`, version: 'v1', resource: 'subjectaccessreviews' },
      body: {
        apiVersion: `authorization.${ctx.apiDomain}/v1`,
        kind: 'SubjectAccessReview',
        spec: {
          user: csr.spec.username,
          uid: csr.spec.uid,
          groups: csr.spec.groups,
          extra: csr.spec.extra,
          resourceAttributes: { group: `certificates.${ctx.apiDomain}`, resource: 'certificatesigningrequests', verb: 'create', subresource },
        },
      },
    });
    return (res.body as { status?: { allowed?: boolean } } | undefined)?.status?.allowed === true;
  };

  return {
    name: 'csrapproving',
    addsFrom: (bucket) => bucket === csrBucket(ctx),
    keepsOnlyObserved: true,
    observe: (event: StorageEvent) => observedCsr(ctx, event),
    async reconcile(name: string): Promise<void> {
      const csr = await readCsr(ctx, name);
      if (!csr || csr.status?.certificate) return;
      const { approved, denied } = approvalOf(csr);
      if (approved || denied) return;
      const request = readCertificateRequest(requestPem(csr));
      if (typeof request === 'string') throw new Error(`unable to parse csr ${JSON.stringify(name)}: ${request}`);
      for (const r of recognizers) {
        if (!r.recognize(csr, request)) continue;
        if (!(await allowed(csr, r.subresource))) continue;
        const next = structuredClone(csr) as CertificateSigningRequest;
        next.status = {
          ...next.status,
          conditions: [...(next.status?.conditions ?? []), { type: 'Approved', status: 'True', reason: 'AutoApproved', message: r.message }],
        };
        try {
          await send({ verb: 'update', resource: csrResource(ctx), name, subresource: 'approval', body: next });
        } catch (e) {
          if (!isApiError(e, 'NotFound')) throw e;
        }
        return;
      }
      // Recognized but not allowed: upstream requeues with backoff; here the request waits for
      // its next change (or a person) instead.
    },
  };
}
