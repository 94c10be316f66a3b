import { afterEach, describe, expect, it } from 'vitest';
import { createSysctlAdmitter } from '../../../src/nodeagent/sysctls/admit.js';
import { boundPod, harness, type Harness } from '../support/agent-harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

type Json = Record<string, any>;

describe('pod admission on the node', () => {
  it('fails a pod a handler rejects, with its reason and "Pod was rejected: ", and never runs it', async () => {
    const sysctls = createSysctlAdmitter({ kernelVersion: '6.1.0-13-amd64' });
    h = await harness({ admitters: [(pod) => sysctls.admit(pod)] });
    await h.kube.request('POST', '/api/v1/namespaces/default/pods', {
      body: boundPod('tuned', {
        securityContext: { sysctls: [{ name: 'net.core.somaxconn', value: '1024' }] },
        containers: [{ name: 'main', image: 'busybox' }],
      }),
    });
    await h.kube.request('POST', '/api/v1/namespaces/default/pods', {
      body: boundPod('safe', {
        securityContext: { sysctls: [{ name: 'net.ipv4.ip_local_port_range', value: '1024 65000' }] },
        containers: [{ name: 'main', image: 'busybox' }],
      }),
    });
    await h.agent.syncOnce();
    await h.agent.syncOnce();

    const tuned = await h.kube.request<Json>('GET', '/api/v1/namespaces/default/pods/tuned');
    expect(tuned.status).toMatchObject({
      phase: 'Failed',
      reason: 'SysctlForbidden',
      message: 'Pod was rejected: forbidden sysctl: "net.core.somaxconn" not allowlisted',
    });
    const safe = await h.kube.request<Json>('GET', '/api/v1/namespaces/default/pods/safe');
    expect(safe.status.phase).toBe('Running');
    const sandboxes = (await h.runtime.listPodSandbox({})).items.map((s) => s.metadata.name);
    expect(sandboxes).toEqual(['safe']);
  });
});
