import { describe, expect, it } from 'vitest';
import { IngressClassKind, IngressKind, networkingKinds, type Ingress, type IngressClass } from '../../../src/kinds/networking/index.js';
import { statusOf, useTestCluster } from '../../support/cluster.js';

const cluster = useTestCluster({ kinds: [...networkingKinds] });
const ingresses = () => cluster.client.resource(IngressKind);
const classes = () => cluster.client.resource(IngressClassKind);

const backend = { service: { name: 'web', port: { number: 80 } } };

/** An Ingress `ing` with one rule for `example.com` (path `/`, Prefix), changed by `patch`. */
function ing(patch: (i: Ingress) => void = () => {}): Ingress {
  const i: Ingress = {
    metadata: { name: 'ing' },
    spec: { rules: [{ host: 'example.com', http: { paths: [{ path: '/', pathType: 'Prefix', backend }] } }] },
  };
  patch(i);
  return i;
}

/** The 422 of creating `i`: its message (after the prefix) and its causes' fields. */
async function rejected(i: Ingress): Promise<{ message: string; fields: string[] }> {
  const s = await statusOf(() => ingresses().create(i));
  expect(s.code).toBe(422);
  const prefix = 'Ingress.networking.k8s.io "ing" is invalid: ';
  const message = s.message ?? '';
  expect(message.startsWith(prefix)).toBe(true);
  return { message: message.slice(prefix.length), fields: (s.details?.causes ?? []).map((c) => c.field ?? '') };
}

async function table(path: string): Promise<{ columnDefinitions: { name: string; type: string; priority: number }[]; rows: { cells: unknown[] }[] }> {
  const res = await cluster.fetch(new Request(`http://memkube${path}`, { headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } }));
  expect(res.status).toBe(200);
  return (await res.json()) as never;
}

describe('Ingress', () => {
  it('is served as networking.k8s.io/v1 ingresses (short name ing) with a status subresource', async () => {
    const res = await cluster.fetch(new Request('http://memkube/apis/networking.k8s.io/v1'));
    const list = (await res.json()) as { resources: { name: string; shortNames?: string[]; namespaced: boolean }[] };
    expect(list.resources.find((r) => r.name === 'ingresses')).toMatchObject({ shortNames: ['ing'], namespaced: true });
    expect(list.resources.map((r) => r.name)).toContain('ingresses/status');
  });

  it('resets status on create (serialized as loadBalancer {}), starts the generation at 1 and bumps it on spec changes only', async () => {
    const created = await ingresses().create(ing((i) => (i.status = { loadBalancer: { ingress: [{ ip: '1.2.3.4' }] } })));
    expect(created.status).toEqual({ loadBalancer: {} });
    expect(created.metadata?.generation).toBe(1);
    const relabeled = await ingresses().update({ ...created, metadata: { ...created.metadata, labels: { a: 'b' } } });
    expect(relabeled.metadata?.generation).toBe(1);
    const changed = await ingresses().update(
      ing((i) => {
        i.metadata = relabeled.metadata;
        i.spec!.ingressClassName = 'nginx';
      }),
    );
    expect(changed.metadata?.generation).toBe(2);
  });

  it('changes status only through /status, with the load balancer rules', async () => {
    const created = await ingresses().create(ing());
    const updated = await ingresses().updateStatus({ ...created, status: { loadBalancer: { ingress: [{ ip: '10.0.0.1', hostname: 'lb.example.com' }] } } });
    expect(updated.status).toEqual({ loadBalancer: { ingress: [{ ip: '10.0.0.1', hostname: 'lb.example.com' }] } });
    const s = await statusOf(() =>
      ingresses().updateStatus({ ...updated, status: { loadBalancer: { ingress: [{ ip: '010.0.0.1' }, { hostname: '1.2.3.4' }] } } }),
    );
    expect(s.message).toBe(
      'Ingress.networking.k8s.io "ing" is invalid: [status.loadBalancer.ingress[0].ip: Invalid value: "010.0.0.1": must not have leading 0s, status.loadBalancer.ingress[1].hostname: Invalid value: "1.2.3.4": must be a DNS name, not an IP address]',
    );
  });

  it('requires rules or a default backend', async () => {
    expect((await rejected(ing((i) => (i.spec = {})))).message).toBe('spec: Invalid value: null: either `defaultBackend` or `rules` must be specified');
    expect((await rejected(ing((i) => (i.spec = { rules: [] })))).message).toBe(
      'spec: Invalid value: []: either `defaultBackend` or `rules` must be specified',
    );
    await ingresses().create(ing((i) => (i.spec = { defaultBackend: backend })));
  });

  it.each([
    ['1.2.3.4', 'spec.rules[0].host: Invalid value: "1.2.3.4": must be a DNS name, not an IP address'],
    [
      'Example.com',
      "spec.rules[0].host: Invalid value: \"Example.com\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ],
    [
      '*.*.example.com',
      "spec.rules[0].host: Invalid value: \"*.*.example.com\": a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', regex used for validation is '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ],
  ])('rejects the host %j', async (host, message) => {
    expect((await rejected(ing((i) => (i.spec!.rules![0]!.host = host)))).message).toBe(message);
  });

  it('accepts a wildcard host', async () => {
    await ingresses().create(ing((i) => (i.spec!.rules![0]!.host = '*.example.com')));
  });

  it.each([
    ['Prefix', 'api', ['spec.rules[0].http.paths[0].path: Invalid value: "api": must be an absolute path']],
    ['Exact', '', ['spec.rules[0].http.paths[0].path: Invalid value: "": must be an absolute path']],
    [
      'Exact',
      '/a//b/./c',
      [
        'spec.rules[0].http.paths[0].path: Invalid value: "/a//b/./c": must not contain \'//\'',
        'spec.rules[0].http.paths[0].path: Invalid value: "/a//b/./c": must not contain \'/./\'',
      ],
    ],
    [
      'Prefix',
      '/x%2Fy/..',
      [
        'spec.rules[0].http.paths[0].path: Invalid value: "/x%2Fy/..": must not contain \'%2F\'',
        'spec.rules[0].http.paths[0].path: Invalid value: "/x%2Fy/..": cannot end with \'/..\'',
      ],
    ],
    ['ImplementationSpecific', 'rel', ['spec.rules[0].http.paths[0].path: Invalid value: "rel": must be an absolute path']],
    ['Regex', '/', ['spec.rules[0].http.paths[0].pathType: Unsupported value: "Regex": supported values: "Exact", "ImplementationSpecific", "Prefix"']],
  ])('checks a %s path %j', async (pathType, path, messages) => {
    const r = await rejected(ing((i) => (i.spec!.rules![0]!.http!.paths[0] = { path, pathType, backend })));
    expect(r.message).toBe(messages.length === 1 ? messages[0] : `[${messages.join(', ')}]`);
  });

  it('accepts an empty ImplementationSpecific path and requires pathType and paths', async () => {
    await ingresses().create(ing((i) => (i.spec!.rules![0]!.http!.paths[0] = { pathType: 'ImplementationSpecific', backend })));
    const r = await rejected(ing((i) => (i.spec!.rules![0]!.http!.paths[0] = { path: '/', backend } as never)));
    expect(r.message).toBe('spec.rules[0].http.paths[0].pathType: Required value: pathType must be specified');
    expect((await rejected(ing((i) => (i.spec!.rules![0]!.http!.paths = [])))).message).toBe('spec.rules[0].http.paths: Required value');
  });

  it.each([
    [{}, 'spec.defaultBackend: Invalid value: "": resource or service backend is required'],
    [
      { service: { name: 'web', port: { name: 'http', number: 80 } }, resource: { kind: 'Bucket', name: 'b' } },
      'spec.defaultBackend: Invalid value: "": cannot set both resource and service backends',
    ],
    [{ service: { name: 'web', port: { name: 'http', number: 80 } } }, 'spec.defaultBackend: Invalid value: "": cannot set both port name & port number'],
    [{ service: { name: 'web' } }, 'spec.defaultBackend: Required value: port name or number is required'],
    [
      { service: { name: 'web', port: { number: 70000 } } },
      'spec.defaultBackend.service.port.number: Invalid value: 70000: must be between 1 and 65535, inclusive',
    ],
    [
      { service: { name: 'web', port: { name: 'Http' } } },
      'spec.defaultBackend.service.port.name: Invalid value: "Http": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
    ],
    [
      { service: { name: 'Web', port: { number: 80 } } },
      "spec.defaultBackend.service.name: Invalid value: \"Web\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    ],
    [
      { resource: { apiGroup: 'Bad_Group', kind: 'a/b', name: '..' } },
      "[spec.defaultBackend.resource.apiGroup: Invalid value: \"Bad_Group\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'), spec.defaultBackend.resource.kind: Invalid value: \"a/b\": may not contain '/', spec.defaultBackend.resource.name: Invalid value: \"..\": may not be '..']",
    ],
  ])('checks the default backend %j', async (defaultBackend, message) => {
    const r = await rejected(ing((i) => (i.spec = { defaultBackend: defaultBackend as never })));
    expect(r.message.replace("'my-name',  or", "'my-name' or")).toBe(message.replace("'my-name',  or", "'my-name' or"));
  });

  it('checks TLS hosts, secret names and the class name', async () => {
    const r = await rejected(
      ing((i) => {
        i.spec!.tls = [{ hosts: ['*.ok.com', 'BAD'], secretName: 'Bad_Secret' }];
        i.spec!.ingressClassName = 'Nginx';
      }),
    );
    expect(r.fields).toEqual(['spec.tls[0].hosts[1]', 'spec.tls[0].secretName', 'spec.ingressClassName']);
  });

  it('requires the class annotation to match ingressClassName', async () => {
    const r = await rejected(
      ing((i) => {
        i.metadata!.annotations = { 'kubernetes.io/ingress.class': 'other' };
        i.spec!.ingressClassName = 'nginx';
      }),
    );
    expect(r.message).toBe('annotations.kubernetes.io/ingress.class: Invalid value: "other": must match `ingressClassName` when both are specified');
  });

  it('prints Class, Hosts, Address, Ports and Age as kubectl shows them', async () => {
    const created = await ingresses().create(
      ing((i) => {
        i.spec!.rules = ['a.com', 'b.com', '', 'c.com', 'd.com'].map((host) => ({ host, http: { paths: [{ path: '/', pathType: 'Prefix', backend }] } }));
        i.spec!.tls = [{ hosts: ['a.com'] }];
        i.spec!.ingressClassName = 'nginx';
      }),
    );
    await ingresses().updateStatus({
      ...created,
      status: { loadBalancer: { ingress: [{ ip: '10.0.0.2' }, { hostname: 'lb.example.com' }, { ip: '10.0.0.1' }, { ip: '10.0.0.2' }] } },
    });
    await ingresses().create({ ...ing(), metadata: { name: 'plain' } });
    const t = await table('/apis/networking.k8s.io/v1/namespaces/default/ingresses');
    expect(t.columnDefinitions.map((c) => c.name)).toEqual(['Name', 'Class', 'Hosts', 'Address', 'Ports', 'Age']);
    expect(t.rows.map((r) => r.cells.slice(0, 5))).toEqual([
      ['ing', 'nginx', 'a.com,b.com,c.com + 2 more...', '10.0.0.1,10.0.0.2,lb.example.com', '80, 443'],
      ['plain', '<none>', 'example.com', '', '80'],
    ]);
  });

  it('answers 400 for a malformed body and stores nothing', async () => {
    const res = await cluster.fetch(
      new Request('http://memkube/apis/networking.k8s.io/v1/namespaces/default/ingresses', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', metadata: { name: 'x' }, spec: { rules: 'nope' } }),
      }),
    );
    expect(res.status).toBe(400);
    expect((await ingresses().list()).items).toEqual([]);
  });
});

describe('IngressClass', () => {
  const ic = (spec: IngressClass['spec'], name = 'nginx'): IngressClass => ({ metadata: { name }, spec });

  it('is cluster-scoped, defaults parameters.scope to Cluster and starts the generation at 1', async () => {
    const created = await classes().create(ic({ controller: 'example.com/ingress', parameters: { apiGroup: 'k8s.example.com', kind: 'Params', name: 'p' } }));
    expect(created.metadata?.namespace).toBeUndefined();
    expect(created.spec?.parameters?.scope).toBe('Cluster');
    expect(created.metadata?.generation).toBe(1);
  });

  it.each([
    [{}, 'spec.controller: Required value'],
    [{ controller: 'nginx' }, 'spec.controller: Invalid value: "nginx": must be a domain-prefixed path (such as "acme.io/foo")'],
    [{ controller: `example.com/${'a'.repeat(250)}` }, 'spec.controller: Too long: may not be more than 250 bytes'],
    [
      { controller: 'example.com/x', parameters: { kind: 'P', name: 'p', scope: 'Namespace' } },
      "spec.parameters.namespace: Required value: `parameters.scope` is set to 'Namespace'",
    ],
    [
      { controller: 'example.com/x', parameters: { kind: 'P', name: 'p', scope: 'Cluster', namespace: 'ns' } },
      "spec.parameters.namespace: Forbidden: `parameters.scope` is set to 'Cluster'",
    ],
    [
      { controller: 'example.com/x', parameters: { kind: 'P', name: 'p', scope: 'Global' } },
      'spec.parameters.scope: Unsupported value: "Global": supported values: "Cluster", "Namespace"',
    ],
  ])('rejects %j', async (spec, message) => {
    const s = await statusOf(() => classes().create(ic(spec as never)));
    expect(s.code).toBe(422);
    expect(s.message).toBe(`IngressClass.networking.k8s.io "nginx" is invalid: ${message}`);
  });

  it('keeps the controller immutable', async () => {
    const created = await classes().create(ic({ controller: 'example.com/a' }));
    const s = await statusOf(() => classes().update({ ...created, spec: { controller: 'example.com/b' } }));
    expect(s.message).toBe('IngressClass.networking.k8s.io "nginx" is invalid: spec.controller: Invalid value: "example.com/b": field is immutable');
  });

  it('prints Controller and Parameters', async () => {
    await classes().create(ic({ controller: 'example.com/a', parameters: { apiGroup: 'k8s.example.com', kind: 'Params', name: 'p' } }, 'a'));
    await classes().create(ic({ controller: 'example.com/b', parameters: { kind: 'ConfigMap', name: 'c', scope: 'Namespace', namespace: 'ns' } }, 'b'));
    await classes().create(ic({ controller: 'example.com/c' }, 'c'));
    const t = await table('/apis/networking.k8s.io/v1/ingressclasses');
    expect(t.columnDefinitions.map((c) => c.name)).toEqual(['Name', 'Controller', 'Parameters', 'Age']);
    expect(t.rows.map((r) => r.cells.slice(0, 3))).toEqual([
      ['a', 'example.com/a', 'Params.k8s.example.com/p'],
      ['b', 'example.com/b', 'ConfigMap/c'],
      ['c', 'example.com/c', '<none>'],
    ]);
  });
});
