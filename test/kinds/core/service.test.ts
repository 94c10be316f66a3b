import { describe, expect, it } from 'vitest';
import { ServiceKind, type Service } from '../../../src/kinds/index.js';
import { statusOf, testCluster, useTestCluster } from '../../support/cluster.js';

const cluster = useTestCluster();

const services = () => cluster.client.resource(ServiceKind);
const create = (s: Service) => services().create(s, { namespace: 'default' });
const update = (s: Service) => services().update(s, { namespace: 'default' });
const names = async () => (await services().list({ namespace: 'default' })).items.map((s) => s.metadata?.name);

async function rejected(svc: Service) {
  const before = await names();
  const s = await statusOf(() => create(svc));
  expect(s).toMatchObject({ code: 422, reason: 'Invalid', details: { kind: 'Service' } });
  expect(await names()).toEqual(before);
  return s;
}

/** Messages of the causes of a 422, in order. */
async function causes(svc: Service): Promise<string[]> {
  const s = await rejected(svc);
  return (s.details?.causes ?? []).map((c) => `${c.field}: ${c.message}`);
}

const web = (spec: Service['spec'] = {}, name = 'web'): Service => ({
  metadata: { name },
  spec: { selector: { app: 'web' }, ports: [{ port: 80 }], ...spec },
});

function ipToNumber(ip: string): number {
  return ip.split('.').reduce((n, o) => n * 256 + Number(o), 0);
}
const FIRST_DYNAMIC = ipToNumber('10.96.1.1');
const LAST = ipToNumber('10.111.255.254');

describe('Service defaults', () => {
  it('fills a ClusterIP service as a stock API server does', async () => {
    const svc = await create(web());
    const ip = svc.spec!.clusterIP!;
    const { metadata, ...rest } = svc;
    expect(rest).toEqual({
      apiVersion: 'v1',
      kind: 'Service',
      spec: {
        selector: { app: 'web' },
        ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }],
        type: 'ClusterIP',
        sessionAffinity: 'None',
        internalTrafficPolicy: 'Cluster',
        ipFamilies: ['IPv4'],
        ipFamilyPolicy: 'SingleStack',
        clusterIP: ip,
        clusterIPs: [ip],
      },
      status: { loadBalancer: {} },
    });
    expect(metadata).toMatchObject({ name: 'web', namespace: 'default' });
    // Dynamic addresses come from the upper part of 10.96.0.0/12.
    expect(ipToNumber(ip)).toBeGreaterThanOrEqual(FIRST_DYNAMIC);
    expect(ipToNumber(ip)).toBeLessThanOrEqual(LAST);
  });

  it('keeps a named targetPort and the protocol given, and ignores a status in the body', async () => {
    const svc = await create({
      ...web({ ports: [{ name: 'dns', port: 53, protocol: 'UDP', targetPort: 'dns-port' }] }),
      status: { loadBalancer: { ingress: [{ ip: '1.2.3.4' }] } },
    });
    expect(svc.spec?.ports).toEqual([{ name: 'dns', port: 53, protocol: 'UDP', targetPort: 'dns-port' }]);
    expect(svc.status).toEqual({ loadBalancer: {} });
  });

  it('gives NodePort services node ports and externalTrafficPolicy Cluster', async () => {
    const svc = await create(
      web({
        type: 'NodePort',
        ports: [
          { name: 'http', port: 80 },
          { name: 'https', port: 443 },
        ],
      }),
    );
    expect(svc.spec).toMatchObject({ type: 'NodePort', externalTrafficPolicy: 'Cluster', internalTrafficPolicy: 'Cluster' });
    const ports = svc.spec!.ports!.map((p) => p.nodePort!);
    expect(new Set(ports).size).toBe(2);
    for (const p of ports) expect(p >= 30000 && p <= 32767).toBe(true);
  });

  it('gives TCP and UDP ports with the same number one node port', async () => {
    const svc = await create(
      web({
        type: 'NodePort',
        ports: [
          { name: 'dns-tcp', port: 53 },
          { name: 'dns-udp', port: 53, protocol: 'UDP' },
        ],
      }),
    );
    const [a, b] = svc.spec!.ports!;
    expect(a!.nodePort).toBe(b!.nodePort);
  });

  it('defaults LoadBalancer services, with a health check port for externalTrafficPolicy Local', async () => {
    const lb = await create(web({ type: 'LoadBalancer' }));
    expect(lb.spec).toMatchObject({ allocateLoadBalancerNodePorts: true, externalTrafficPolicy: 'Cluster' });
    expect(lb.spec?.ports?.[0]?.nodePort).toBeGreaterThanOrEqual(30000);
    expect(lb.spec).not.toHaveProperty('healthCheckNodePort');
    const local = await create(web({ type: 'LoadBalancer', externalTrafficPolicy: 'Local' }, 'local'));
    expect(local.spec?.healthCheckNodePort).toBeGreaterThanOrEqual(30000);
    const noPorts = await create(web({ type: 'LoadBalancer', allocateLoadBalancerNodePorts: false }, 'noports'));
    expect(noPorts.spec?.ports?.[0]).not.toHaveProperty('nodePort');
  });

  it('leaves ExternalName services without IPs, families or internal traffic policy', async () => {
    const svc = await create({ metadata: { name: 'ext' }, spec: { type: 'ExternalName', externalName: 'db.example.com.' } });
    expect(svc.spec).toEqual({ type: 'ExternalName', externalName: 'db.example.com.', sessionAffinity: 'None' });
  });

  it('makes clusterIP None headless: dual-stack families without a selector, single-stack with one', async () => {
    const bare = await create({ metadata: { name: 'bare' }, spec: { clusterIP: 'None' } });
    expect(bare.spec).toEqual({
      clusterIP: 'None',
      clusterIPs: ['None'],
      type: 'ClusterIP',
      sessionAffinity: 'None',
      internalTrafficPolicy: 'Cluster',
      ipFamilyPolicy: 'RequireDualStack',
      ipFamilies: ['IPv4', 'IPv6'],
    });
    const selected = await create(web({ clusterIP: 'None' }, 'selected'));
    expect(selected.spec).toMatchObject({ clusterIPs: ['None'], ipFamilyPolicy: 'SingleStack', ipFamilies: ['IPv4'] });
  });

  it('defaults the ClientIP affinity timeout and drops affinity config for None', async () => {
    const sticky = await create(web({ sessionAffinity: 'ClientIP' }));
    expect(sticky.spec?.sessionAffinityConfig).toEqual({ clientIP: { timeoutSeconds: 10800 } });
    const none = await create(web({ sessionAffinityConfig: { clientIP: { timeoutSeconds: 5 } } }, 'none'));
    expect(none.spec).not.toHaveProperty('sessionAffinityConfig');
  });
});

describe('Service cluster IPs', () => {
  it('never hands out the same IP twice', async () => {
    const ips = new Set<string>();
    for (let i = 0; i < 150; i++) ips.add((await create(web({}, `s${i}`))).spec!.clusterIP!);
    expect(ips.size).toBe(150);
  });

  it('honours a requested IP, refuses it while taken and frees it on delete', async () => {
    const a = await create(web({ clusterIP: '10.96.0.10' }, 'a'));
    expect(a.spec).toMatchObject({ clusterIP: '10.96.0.10', clusterIPs: ['10.96.0.10'] });
    const s = await rejected(web({ clusterIP: '10.96.0.10' }, 'b'));
    expect(s.message).toBe(
      'Service "b" is invalid: spec.clusterIPs: Invalid value: ["10.96.0.10"]: failed to allocate IP 10.96.0.10: provided IP is already allocated',
    );
    expect(s.details?.causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: ["10.96.0.10"]: failed to allocate IP 10.96.0.10: provided IP is already allocated',
        field: 'spec.clusterIPs',
      },
    ]);
    await services().delete('a', { namespace: 'default' });
    const b = await create(web({ clusterIPs: ['10.96.0.10'], clusterIP: '10.96.0.10' }, 'b'));
    expect(b.spec?.clusterIP).toBe('10.96.0.10');
  });

  it('does not hold an IP for a create that failed or a dry run', async () => {
    await rejected(web({ clusterIP: '10.96.0.11', sessionAffinity: 'Sometimes' }, 'bad'));
    await services().create(web({ clusterIP: '10.96.0.11' }, 'dry'), { namespace: 'default', dryRun: true });
    await create(web({ clusterIP: '10.96.0.11' }, 'good'));
  });

  it('keeps the tables of clusters apart', async () => {
    await create(web({ clusterIP: '10.96.0.12' }, 'a'));
    const other = await testCluster();
    try {
      const svc = await other.client.resource(ServiceKind).create(web({ clusterIP: '10.96.0.12' }, 'a'), { namespace: 'default' });
      expect(svc.spec?.clusterIP).toBe('10.96.0.12');
    } finally {
      await other.close();
    }
  });

  it('refuses IPs outside the service CIDR and its network and broadcast addresses', async () => {
    const outside = await rejected(web({ clusterIP: '192.168.0.1' }, 'x'));
    expect(outside.message).toBe(
      'Service "x" is invalid: spec.clusterIPs: Invalid value: ["192.168.0.1"]: failed to allocate IP 192.168.0.1: the provided network does not match the current range',
    );
    const network = await rejected(web({ clusterIP: '10.96.0.0' }, 'x'));
    expect(network.message).toBe(
      'Service "x" is invalid: spec.clusterIPs: Invalid value: ["10.96.0.0"]: failed to allocate IP 10.96.0.0: provided IP 10.96.0.0 is not in the valid range',
    );
    const broadcast = await rejected(web({ clusterIP: '10.111.255.255' }, 'x'));
    expect(broadcast.message).toContain('provided IP 10.111.255.255 is not in the valid range');
  });

  it('validates malformed cluster IP fields instead of allocating', async () => {
    expect(await causes(web({ clusterIP: 'abc' }))).toEqual([
      'spec.clusterIPs[0]: Invalid value: "abc": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
    ]);
    expect(await causes(web({ clusterIP: '010.96.0.1' }))).toEqual(['spec.clusterIPs[0]: Invalid value: "010.96.0.1": must not have leading 0s']);
    expect(await causes(web({ clusterIP: '10.96.0.1', clusterIPs: ['10.96.0.2'] }))).toEqual([
      'spec.clusterIPs: Invalid value: ["10.96.0.2"]: first value must match `clusterIP`',
    ]);
    expect(await causes(web({ clusterIPs: ['10.96.0.2'] }))).toEqual([
      'spec.clusterIPs: Invalid value: ["10.96.0.2"]: must be empty when `clusterIP` is not specified',
    ]);
    expect(await causes(web({ clusterIP: 'None', clusterIPs: ['None', '10.96.0.2'] }))).toEqual([
      'spec.clusterIPs: Invalid value: ["None","10.96.0.2"]: \'None\' must be the first and only value',
    ]);
  });

  it('checks only the cluster IP fields first when they are malformed, as the allocator does', async () => {
    expect(await causes(web({ clusterIP: 'abc', sessionAffinity: 'Sticky', ports: [] }))).toEqual([
      'spec.clusterIPs[0]: Invalid value: "abc": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
    ]);
  });

  it('refuses two families or IPs for a single-stack service, and IPv6 IPs', async () => {
    expect(await causes(web({ ipFamilyPolicy: 'SingleStack', ipFamilies: ['IPv4', 'IPv6'] }))).toEqual([
      "spec.ipFamilyPolicy: Invalid value: \"SingleStack\": must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified",
    ]);
    expect(await causes(web({ clusterIP: 'fd00::10' }))).toEqual(['spec.clusterIPs[0]: Invalid value: ["fd00::10"]: IPv6 is not configured on this cluster']);
  });

  it('refuses dual-stack and IPv6 on this IPv4 cluster', async () => {
    expect(await causes(web({ ipFamilyPolicy: 'RequireDualStack' }))).toEqual([
      'spec.ipFamilyPolicy: Invalid value: "RequireDualStack": this cluster is not configured for dual-stack services',
    ]);
    expect(await causes(web({ ipFamilies: ['IPv6'] }))).toEqual(['spec.ipFamilies[0]: Invalid value: "IPv6": not configured on this cluster']);
    const prefer = await create(web({ ipFamilyPolicy: 'PreferDualStack' }, 'prefer'));
    expect(prefer.spec).toMatchObject({ ipFamilyPolicy: 'PreferDualStack', ipFamilies: ['IPv4'] });
  });
});

describe('Service node ports', () => {
  it('honours a requested node port, refuses it while taken and out of range', async () => {
    await create(web({ type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] }, 'a'));
    const taken = await rejected(web({ type: 'NodePort', ports: [{ port: 81, nodePort: 30080 }] }, 'b'));
    expect(taken.message).toBe('Service "b" is invalid: spec.ports[0].nodePort: Invalid value: 30080: provided port is already allocated');
    const range = await rejected(web({ type: 'NodePort', ports: [{ port: 80, nodePort: 8080 }] }, 'c'));
    expect(range.message).toBe(
      'Service "c" is invalid: spec.ports[0].nodePort: Invalid value: 8080: provided port is not in the valid range. The range of valid ports is 30000-32767',
    );
    await services().delete('a', { namespace: 'default' });
    await create(web({ type: 'NodePort', ports: [{ port: 81, nodePort: 30080 }] }, 'b'));
  });

  it('never hands out the same node port twice', async () => {
    const ports = new Set<number>();
    for (let i = 0; i < 60; i++) {
      const svc = await create(
        web(
          {
            type: 'NodePort',
            ports: [
              { name: 'a', port: 80 },
              { name: 'b', port: 81 },
            ],
          },
          `n${i}`,
        ),
      );
      for (const p of svc.spec!.ports!) ports.add(p.nodePort!);
    }
    expect(ports.size).toBe(120);
  });

  it('fills the whole node port range, then reuses a port once its service is gone', async () => {
    const used = new Set<number>();
    for (let i = 0; i < 2768; i++) {
      const svc = await create(web({ type: 'NodePort' }, `n${i}`));
      used.add(svc.spec!.ports![0]!.nodePort!);
    }
    expect(used.size).toBe(2768);
    const full = await statusOf(() => create(web({ type: 'NodePort' }, 'one-more')));
    expect(full).toMatchObject({ code: 500, reason: 'InternalError', message: 'Internal error occurred: failed to allocate a nodePort: range is full' });
    const freed = (await services().delete('n7', { namespace: 'default' })) as Service;
    const again = await create(web({ type: 'NodePort' }, 'one-more'));
    expect(again.spec?.ports?.[0]?.nodePort).toBe(freed.spec?.ports?.[0]?.nodePort);
  }, 60_000);

  it('refuses a taken health check node port', async () => {
    await create(web({ type: 'NodePort', ports: [{ port: 80, nodePort: 30100 }] }, 'a'));
    // Kubernetes reports this one as an internal error.
    const s = await statusOf(() => create(web({ type: 'LoadBalancer', externalTrafficPolicy: 'Local', healthCheckNodePort: 30100 }, 'b')));
    expect(s).toMatchObject({
      code: 500,
      reason: 'InternalError',
      message: 'Internal error occurred: failed to allocate requested HealthCheck NodePort 30100: provided port is already allocated',
    });
    expect(await names()).toEqual(['a']);
  });
});

describe('Service validation', () => {
  it('requires ports unless headless or ExternalName', async () => {
    expect(await causes({ metadata: { name: 'x' }, spec: { selector: { app: 'x' } } })).toEqual(['spec.ports: Required value']);
    await create({ metadata: { name: 'h' }, spec: { clusterIP: 'None', selector: { app: 'x' } } });
  });

  it('checks port names, numbers, protocols and target ports', async () => {
    expect(
      await causes(
        web({
          ports: [
            { port: 80 },
            { name: 'Web', port: 70000, protocol: 'HTTP', targetPort: 0 },
            { name: 'dup', port: 1, targetPort: 'this-is-way-too--long-' },
            { name: 'dup', port: 2, targetPort: '123' },
          ],
        }),
      ),
    ).toEqual([
      'spec.ports[0].name: Required value',
      "spec.ports[1].name: Invalid value: \"Web\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
      'spec.ports[1].port: Invalid value: 70000: must be between 1 and 65535, inclusive',
      'spec.ports[1].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"',
      'spec.ports[1].targetPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
      'spec.ports[2].targetPort: Invalid value: "this-is-way-too--long-": must be no more than 15 characters',
      'spec.ports[2].targetPort: Invalid value: "this-is-way-too--long-": must not contain consecutive hyphens',
      'spec.ports[2].targetPort: Invalid value: "this-is-way-too--long-": must not begin or end with a hyphen',
      'spec.ports[3].name: Duplicate value: "dup"',
      'spec.ports[3].targetPort: Invalid value: "123": must contain at least one letter (a-z)',
    ]);
  });

  it('reports port 0 and duplicate protocol/port pairs as Kubernetes prints them', async () => {
    expect(await causes(web({ ports: [{ port: 0 }] }))).toEqual([
      'spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive',
      'spec.ports[0].targetPort: Invalid value: 0: must be between 1 and 65535, inclusive',
    ]);
    expect(
      await causes(
        web({
          ports: [
            { name: 'a', port: 80 },
            { name: 'b', port: 80 },
            { name: 'c', port: 80, protocol: 'UDP' },
          ],
        }),
      ),
    ).toEqual(['spec.ports[1]: Duplicate value: {"Name":"","Protocol":"TCP","AppProtocol":null,"Port":80,"TargetPort":0,"NodePort":0}']);
  });

  it('takes a missing port for 0 (a plain int32 in Go), on create, PUT and a patch that removes it', async () => {
    const noPort = { protocol: 'TCP', targetPort: 80 } as NonNullable<NonNullable<Service['spec']>['ports']>[number];
    const message = 'Service "web" is invalid: spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive';
    expect(await causes(web({ ports: [noPort] }))).toEqual(['spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive']);
    expect(await causes(web({ ports: [{ protocol: 'TCP' } as typeof noPort] }))).toEqual([
      'spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive',
      'spec.ports[0].targetPort: Invalid value: 0: must be between 1 and 65535, inclusive',
    ]);
    const svc = await create(web());
    const put = await statusOf(() => update({ ...svc, spec: { ...svc.spec, ports: [noPort] } }));
    expect(put).toMatchObject({ code: 422, message });
    const patched = await statusOf(() => services().patch('web', [{ op: 'remove', path: '/spec/ports/0/port' }], { type: 'json', namespace: 'default' }));
    expect(patched).toMatchObject({ code: 422, message });
    expect((await services().get('web', { namespace: 'default' })).spec?.ports).toEqual(svc.spec?.ports);
  });

  it('checks type, session affinity, selector and traffic policies', async () => {
    expect(await causes(web({ type: 'Magic' }))).toEqual([
      'spec.type: Unsupported value: "Magic": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"',
    ]);
    expect(await causes(web({ sessionAffinity: 'Sticky' }))).toEqual([
      'spec.sessionAffinity: Unsupported value: "Sticky": supported values: "ClientIP", "None"',
    ]);
    expect(await causes(web({ sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 0 } } }))).toEqual([
      'spec.sessionAffinityConfig.clientIP.timeoutSeconds: Invalid value: 0: must be greater than 0 and less than 86400',
    ]);
    expect(await causes(web({ selector: { 'a/b/c': 'x' } }))).toEqual([
      "spec.selector: Invalid value: \"a/b/c\": a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ]);
    expect(await causes(web({ internalTrafficPolicy: 'Nearby' }))).toEqual([
      'spec.internalTrafficPolicy: Unsupported value: "Nearby": supported values: "Cluster", "Local"',
    ]);
    expect(await causes(web({ externalTrafficPolicy: 'Local' }))).toEqual([
      'spec.externalTrafficPolicy: Invalid value: "Local": may only be set for externally-accessible services',
    ]);
    expect(await causes(web({ type: 'NodePort', externalTrafficPolicy: 'Nearby' }))).toEqual([
      'spec.externalTrafficPolicy: Unsupported value: "Nearby": supported values: "Cluster", "Local"',
    ]);
    expect(await causes(web({ allocateLoadBalancerNodePorts: true, loadBalancerClass: 'x', loadBalancerSourceRanges: ['10.0.0.0/8'] }))).toEqual([
      "spec.LoadBalancerSourceRanges: Forbidden: may only be used when `type` is 'LoadBalancer'",
      "spec.allocateLoadBalancerNodePorts: Forbidden: may only be used when `type` is 'LoadBalancer'",
      "spec.loadBalancerClass: Forbidden: may only be used when `type` is 'LoadBalancer'",
    ]);
    expect(await causes(web({ type: 'LoadBalancer', loadBalancerSourceRanges: ['10.0.0.1/8', 'nope'] }))).toEqual([
      'spec.LoadBalancerSourceRanges[0]: Invalid value: "10.0.0.1/8": must not have bits set beyond the prefix length',
      'spec.LoadBalancerSourceRanges[1]: Invalid value: "nope": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
    ]);
  });

  it('forbids node ports on ClusterIP services and one node port for two ports', async () => {
    expect(await causes(web({ ports: [{ port: 80, nodePort: 30001 }] }))).toEqual([
      "spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'",
    ]);
    expect(
      await causes(
        web({
          type: 'NodePort',
          ports: [
            { name: 'a', port: 80, nodePort: 30400 },
            { name: 'b', port: 81, nodePort: 30400 },
          ],
        }),
      ),
    ).toEqual(['spec.ports[1].nodePort: Invalid value: 30400: provided port is already allocated']);
    // The same port number over TCP and UDP may share one.
    await create(
      web({
        type: 'NodePort',
        ports: [
          { name: 'a', port: 53, nodePort: 30400 },
          { name: 'b', port: 53, protocol: 'UDP', nodePort: 30400 },
        ],
      }),
    );
  });

  it('checks ExternalName services', async () => {
    expect(await causes({ metadata: { name: 'x' }, spec: { type: 'ExternalName' } })).toEqual(['spec.externalName: Required value']);
    expect(await causes({ metadata: { name: 'x' }, spec: { type: 'ExternalName', externalName: 'Not_A_Host' } })).toEqual([
      "spec.externalName: Invalid value: \"Not_A_Host\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ]);
    expect(
      await causes({ metadata: { name: 'x' }, spec: { type: 'ExternalName', externalName: 'a.b', clusterIP: '10.96.0.5', ipFamilyPolicy: 'SingleStack' } }),
    ).toEqual([
      'spec.clusterIPs: Forbidden: may not be set for ExternalName services',
      'spec.ipFamilyPolicy: Forbidden: may not be set for ExternalName services',
    ]);
  });

  it('refuses headless NodePort and LoadBalancer services', async () => {
    expect(await causes(web({ type: 'NodePort', clusterIP: 'None' }))).toEqual([
      `spec.clusterIPs[0]: Invalid value: "None": may not be set to 'None' for NodePort services`,
    ]);
  });

  it('validates names as DNS-1123 labels (relaxed service names)', async () => {
    await create(web({}, '1st-service'));
    const s = await rejected(web({}, 'a.b'));
    expect(s.message).toBe('Service "a.b" is invalid: metadata.name: Invalid value: "a.b": must not contain dots');
  });

  it('rejects wrongly typed input with 400 and stores nothing', async () => {
    const s = await statusOf(() => create({ metadata: { name: 'x' }, spec: { ports: [{ port: '80' as unknown as number }] } }));
    expect(s).toMatchObject({ code: 400, reason: 'BadRequest' });
    expect(await names()).toEqual([]);
  });
});

describe('Service updates', () => {
  it('keeps allocated values a PUT leaves out, so a re-PUT of the manifest is harmless', async () => {
    const svc = await create(web({ type: 'NodePort', ports: [{ name: 'http', port: 80 }] }));
    const again = await update({ metadata: { name: 'web' }, spec: { type: 'NodePort', selector: { app: 'web' }, ports: [{ name: 'http', port: 80 }] } });
    expect(again.spec).toEqual(svc.spec);
    expect(again.metadata?.resourceVersion).toBe(svc.metadata?.resourceVersion);
  });

  it('refuses a changed cluster IP and keeps the stored service', async () => {
    const svc = await create(web({ clusterIP: '10.96.0.20' }));
    const s = await statusOf(() => update({ ...svc, spec: { ...svc.spec, clusterIP: '10.96.0.21', clusterIPs: ['10.96.0.21'] } }));
    expect(s).toMatchObject({ code: 422, message: 'Service "web" is invalid: spec.clusterIPs[0]: Invalid value: ["10.96.0.21"]: may not change once set' });
    // An old client changing only clusterIP gets the same answer.
    const s2 = await statusOf(() => update({ ...svc, spec: { ...svc.spec, clusterIP: '10.96.0.22' } }));
    expect(s2.message).toBe('Service "web" is invalid: spec.clusterIPs[0]: Invalid value: ["10.96.0.22"]: may not change once set');
    expect(await services().get('web', { namespace: 'default' })).toEqual(svc);
  });

  it('drops node ports when a NodePort service becomes ClusterIP, and frees them', async () => {
    const svc = await create(web({ type: 'NodePort', ports: [{ port: 80, nodePort: 30300 }] }));
    const plain = await update({ ...svc, spec: { ...svc.spec, type: 'ClusterIP' } });
    expect(plain.spec?.ports).toEqual([{ port: 80, protocol: 'TCP', targetPort: 80 }]);
    expect(plain.spec).not.toHaveProperty('externalTrafficPolicy');
    await create(web({ type: 'NodePort', ports: [{ port: 80, nodePort: 30300 }] }, 'other'));
  });

  it('switches between ExternalName and ClusterIP, releasing and allocating the IP', async () => {
    const svc = await create(web({ clusterIP: '10.96.0.30' }));
    const ext = await update({ ...svc, spec: { ...svc.spec, type: 'ExternalName', externalName: 'example.com' } });
    expect(ext.spec).not.toHaveProperty('clusterIP');
    expect(ext.spec).not.toHaveProperty('clusterIPs');
    expect(ext.spec).not.toHaveProperty('ipFamilies');
    expect(ext.spec).not.toHaveProperty('ipFamilyPolicy');
    await create(web({ clusterIP: '10.96.0.30' }, 'taker'));
    const { externalName: _e, ...spec } = ext.spec!;
    const back = await update({ ...ext, spec: { ...spec, type: 'ClusterIP' } });
    expect(back.spec?.clusterIP).toMatch(/^10\.(9[6-9]|10[0-9]|11[01])\./);
    expect(back.spec?.clusterIP).not.toBe('10.96.0.30');
  });

  it('creates on PUT, allocating as a create does', async () => {
    const svc = await update(web({}, 'put-made'));
    expect(svc.spec?.clusterIP).toBeTruthy();
    expect(await names()).toEqual(['put-made']);
  });

  it('changes status through /status only, and answers a delete with the service', async () => {
    const svc = await create(web());
    const withLb = await services().updateStatus({ ...svc, status: { loadBalancer: { ingress: [{ ip: '203.0.113.7' }] } } }, { namespace: 'default' });
    expect(withLb.status).toEqual({ loadBalancer: { ingress: [{ ip: '203.0.113.7' }] } });
    expect(withLb.spec).toEqual(svc.spec);
    const deleted = await services().delete('web', { namespace: 'default' });
    expect(deleted).toMatchObject({ kind: 'Service', metadata: { name: 'web' }, spec: { clusterIP: svc.spec?.clusterIP } });
  });
});
