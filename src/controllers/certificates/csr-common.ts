/** What the CSR controllers share: the resource, reading a request, its conditions. */
import type { EngineContext } from '../../api/context.js';
import type { ApiRequest, ApiResponse } from '../../machinery/request.js';
import type { CertificateSigningRequest } from '../../kinds/types/certificates-v1.js';
import type { StorageEvent } from '../../storage/storage.js';

/** How a controller writes: as the cluster's own system user. */
export type Send = (req: Omit<ApiRequest, 'user'>) => Promise<ApiResponse>;

/** The CSR resource of a cluster. */
export function csrResource(ctx: EngineContext): { group: string; version: string; resource: string } {
  return { group: `certificates.${ctx.apiDomain}`, version: 'v1', resource: 'certificatesigningrequests' };
}

/** The storage bucket of CSRs. */
export const csrBucket = (ctx: EngineContext) => `certificates.${ctx.apiDomain}/certificatesigningrequests`;

/** The names of the CSRs a storage event is about (none but added or changed CSRs). */
export function observedCsr(ctx: EngineContext, event: StorageEvent): readonly string[] {
  return event.bucket === csrBucket(ctx) && event.type !== 'DELETED' ? [event.name] : [];
}

/** The stored request of this name, or undefined. */
export async function readCsr(ctx: EngineContext, name: string): Promise<CertificateSigningRequest | undefined> {
  return (await ctx.storage.get({ bucket: csrBucket(ctx), namespace: '', name }))?.value as CertificateSigningRequest | undefined;
}

/** Whether a condition of this type is True (`HasTrueCondition`). */
export const hasTrueCondition = (csr: CertificateSigningRequest, type: string) =>
  (csr.status?.conditions ?? []).some((c) => c.type === type && c.status === 'True');

/** `GetCertApprovalCondition`: whether an Approved and whether a Denied condition is present. */
export function approvalOf(csr: CertificateSigningRequest): { approved: boolean; denied: boolean } {
  const types = (csr.status?.conditions ?? []).map((c) => c.type);
  return { approved: types.includes('Approved'), denied: types.includes('Denied') };
}

/** The request's PEM text (the spec holds it base64-encoded). */
export const requestPem = (csr: CertificateSigningRequest) => Buffer.from(csr.spec.request ?? '', 'base64').toString('latin1');
