import { describe, expect, it } from 'vitest';
import { MetricsRegistry } from '../../../src/metrics/registry.js';
import {
  countCsrDuration,
  csrDurationCounters,
  CSR_HONORED_DURATION_TOTAL,
  CSR_REQUESTED_DURATION_TOTAL,
  isDurationHonored,
} from '../../../src/controllers/certificates/duration-metrics.js';
import { createCluster } from '../../../src/cluster.js';
import { CertificateSigningRequestKind } from '../../../src/kinds/certificates/index.js';
import { createCsr, decide, requestFor } from './helpers.js';
import type { StorageEvent } from '../../../src/storage/storage.js';

const BUCKET = 'certificates.k8s.io/certificatesigningrequests';
const event = (previous: object, object: object, type: StorageEvent['type'] = 'MODIFIED'): StorageEvent => ({
  type,
  bucket: BUCKET,
  namespace: '',
  name: 'c',
  revision: 2,
  object: object as never,
  previous: previous as never,
});

describe('CSR duration counters', () => {
  it('counts a junk certificate as requested only, and labels signers outside kubernetes.io as other', async () => {
    const r = new MetricsRegistry();
    countCsrDuration(
      csrDurationCounters(r),
      BUCKET,
      event({ spec: { signerName: 'fancy', expirationSeconds: 77 } }, { spec: {}, status: { certificate: Buffer.from('junk').toString('base64') } }),
    );
    expect(await r.value(CSR_REQUESTED_DURATION_TOTAL, { signerName: 'other' })).toBe(1);
    expect(await r.value(CSR_HONORED_DURATION_TOTAL, { signerName: 'other' })).toBe(0);
  });

  it('does not count requests without expirationSeconds, certificates already there, other buckets or creations', async () => {
    const registry = new MetricsRegistry();
    const r = csrDurationCounters(registry);
    const cert = { status: { certificate: 'eA==' } };
    countCsrDuration(r, BUCKET, event({ spec: { signerName: 'kubernetes.io/x' } }, cert));
    countCsrDuration(r, BUCKET, event({ spec: { signerName: 'kubernetes.io/x', expirationSeconds: 600 }, ...cert }, cert));
    countCsrDuration(r, BUCKET, { ...event({ spec: { expirationSeconds: 600 } }, cert), bucket: 'core/secrets' });
    countCsrDuration(r, BUCKET, event({ spec: { expirationSeconds: 600 } }, cert, 'ADDED'));
    countCsrDuration(r, BUCKET, event({ spec: { expirationSeconds: 600 } }, { status: {} }));
    expect(await registry.samples()).toEqual([]);
  });

  it('declares both counters with upstream help texts, ALPHA, in the exposition', async () => {
    const registry = new MetricsRegistry();
    const counters = csrDurationCounters(registry);
    counters.requested.inc({ signerName: 'kubernetes.io/kubelet-serving' });
    const text = await registry.text();
    expect(text).toContain(
      `# HELP ${CSR_REQUESTED_DURATION_TOTAL} [ALPHA] Total number of issued CSRs with a requested duration, sliced by signer (only kubernetes.io signer names are specifically identified)`,
    );
    expect(text).toContain(`# TYPE ${CSR_HONORED_DURATION_TOTAL} counter`);
    expect(text).toContain(`${CSR_REQUESTED_DURATION_TOTAL}{signerName="kubernetes.io/kubelet-serving"} 1`);
  });

  it('honours within 5 minutes plus 5% of the asked duration', () => {
    const hour = 3_600_000;
    expect(isDurationHonored(hour, hour)).toBe(true);
    expect(isDurationHonored(hour, hour - 5 * 60_000 - 179_999)).toBe(true);
    expect(isDurationHonored(hour, hour - 5 * 60_000 - 180_000)).toBe(false);
    expect(isDurationHonored(hour, hour + 8 * 60_000 + 1)).toBe(false);
  });

  it('counts a certificate written by an outside signer through /status, but not a dry run', async () => {
    const c = await createCluster({ clock: Date.parse('2026-06-01T00:00:00Z') });
    const self = await createCluster({ clock: Date.parse('2026-06-01T00:00:00Z') });
    // A certificate issued elsewhere (by another cluster's signer), for 1 hour.
    await createCsr(self, 'x', {
      request: await requestFor({ commonName: 'a' }),
      signerName: 'kubernetes.io/kube-apiserver-client',
      usages: ['client auth'],
      expirationSeconds: 3600,
    });
    await decide(self, 'x', 'Approved');
    await self.settle();
    const certificate = (await self.client.resource(CertificateSigningRequestKind).get('x')).status!.certificate!;
    await self.close();

    await createCsr(c, 'y', {
      request: await requestFor({ commonName: 'a' }),
      signerName: 'example.com/signer',
      usages: ['client auth'],
      expirationSeconds: 3600,
    });
    const approved = await decide(c, 'y', 'Approved');
    const r = c.client.resource(CertificateSigningRequestKind);
    await r.updateSubresource('status', { ...approved, status: { ...approved.status, certificate } }, { dryRun: ['All'] });
    expect(await c.metrics.value(CSR_REQUESTED_DURATION_TOTAL, { signerName: 'other' })).toBe(0);
    await r.updateSubresource('status', { ...approved, status: { ...approved.status, certificate } });
    expect(await c.metrics.value(CSR_REQUESTED_DURATION_TOTAL, { signerName: 'other' })).toBe(1);
    expect(await c.metrics.value(CSR_HONORED_DURATION_TOTAL, { signerName: 'other' })).toBe(1);
    await c.close();
  });
});
