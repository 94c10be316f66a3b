/**
 * A custom resource definition with `conversion.strategy: Webhook`, served with a real HTTPS
 * webhook on 127.0.0.1: v1 (`spec.size`) is stored, v2 (`spec.count`) converts through the webhook
 * both ways, and each way a webhook can fail answers the apiserver's error text.
 */
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CustomResourceDefinition } from '../../../../src/kinds/index.js';
import type { KubeObject } from '../../../../src/schema/define-kind.js';
import type { WatchEvent, WatchStream } from '../../../../src/machinery/request.js';
import { generateServingCertificate } from '../../../../src/pki/self-signed.js';
import { statusOf, useTestCluster } from '../../../support/cluster.js';
import { correctAnswer, startConversionWebhook, type ConversionWebhook } from '../../../support/conversion-webhook.js';

const cluster = useTestCluster();
const widgets = (version: string) => cluster.client.resource({ group: 'example.com', version, resource: 'widgets' });
const ns = { namespace: 'default' };

let hook: ConversionWebhook;
beforeEach(async () => {
  hook = await startConversionWebhook();
});
afterEach(async () => {
  await hook.close();
});

const schema = (field: string) => ({
  openAPIV3Schema: {
    type: 'object',
    properties: { spec: { type: 'object', properties: { [field]: { type: 'integer' } } } },
  },
});

type ClientConfig = NonNullable<NonNullable<NonNullable<CustomResourceDefinition['spec']['conversion']>['webhook']>['clientConfig']>;

/** Defines widgets.example.com (v1 stored, v2 served) converting through `clientConfig` (the test webhook by default). */
async function define(clientConfig?: ClientConfig, reviewVersions = ['v1']): Promise<void> {
  await cluster.client.resource({ group: 'apiextensions.k8s.io', version: 'v1', resource: 'customresourcedefinitions' }).create({
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'widgets', kind: 'Widget' },
      versions: [
        { name: 'v1', served: true, storage: true, schema: schema('size') },
        { name: 'v2', served: true, storage: false, schema: schema('count') },
      ],
      conversion: {
        strategy: 'Webhook',
        webhook: { clientConfig: clientConfig ?? { url: hook.url, caBundle: hook.caBundle }, conversionReviewVersions: reviewVersions },
      },
    },
  });
  await cluster.settle();
}

/** Creates Widgets at v1 (no conversion), one per name, `spec.size` its index + 1. */
async function seed(...names: string[]): Promise<void> {
  for (const [i, name] of names.entries()) await widgets('v1').create({ metadata: { name }, spec: { size: i + 1 } }, ns);
}

/** The next `n` events of a watch (fewer when it ends). */
async function take(w: WatchStream<KubeObject>, n: number): Promise<WatchEvent<KubeObject>[]> {
  const out: WatchEvent<KubeObject>[] = [];
  const it = w[Symbol.asyncIterator]();
  while (out.length < n) {
    const next = await it.next();
    if (next.done) break;
    out.push(next.value);
  }
  return out;
}

/** The message a GET of widget `a` at v2 answers, after checking it is a bare 500. */
async function getFailure(): Promise<string> {
  const s = await statusOf(() => widgets('v2').get('a', ns));
  expect(s).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', code: 500 });
  expect(s.reason).toBeUndefined();
  expect(s.details).toBeUndefined();
  return s.message ?? '';
}

const FAILED = 'conversion webhook for example.com/v1, Kind=Widget failed: ';

describe('a custom resource converted by a webhook', () => {
  it('reads at v2 what was created at v1, sending the stored object in a v1 ConversionReview', async () => {
    await define();
    await seed('a');
    const stored = await widgets('v1').get('a', ns);
    expect(hook.received).toEqual([]);
    const v2 = await widgets('v2').get('a', ns);
    expect(v2).toMatchObject({ apiVersion: 'example.com/v2', kind: 'Widget', spec: { count: 1 } });
    expect(v2.metadata).toEqual(stored.metadata);
    expect(hook.received).toHaveLength(1);
    const got = hook.received[0]!;
    expect(got.method).toBe('POST');
    expect(got.url).toBe('/convert?timeout=30s');
    expect(got.headers).toMatchObject({ 'content-type': 'application/json', accept: 'application/json, */*', 'user-agent': 'kube-apiserver-admission' });
    const uid = (got.review['request'] as { uid: string }).uid;
    expect(got.review).toEqual({
      kind: 'ConversionReview',
      apiVersion: 'apiextensions.k8s.io/v1',
      request: { uid, desiredAPIVersion: 'example.com/v2', objects: [stored] },
      response: { uid: '', convertedObjects: null, result: { metadata: {} } },
    });
    // Go encodes the object's keys in byte order.
    expect(got.text).toMatch(/"objects":\[\{"apiVersion":"example.com\/v1","kind":"Widget","metadata":\{"creationTimestamp":/);
  });

  it('creates at v2: the body converts to v1 for storage, the answer back to v2', async () => {
    await define();
    const created = await widgets('v2').create({ metadata: { name: 'a' }, spec: { count: 7 } }, ns);
    expect(created).toMatchObject({ apiVersion: 'example.com/v2', spec: { count: 7 } });
    expect((await widgets('v1').get('a', ns)).spec).toEqual({ size: 7 });
    const desired = hook.received.map((r) => (r.review['request'] as { desiredAPIVersion: string }).desiredAPIVersion);
    expect(desired[0]).toBe('example.com/v1');
    expect(desired.at(-1)).toBe('example.com/v2');
    const sent = (hook.received[0]!.review['request'] as { objects: KubeObject[] }).objects[0]!;
    expect(sent).toMatchObject({ apiVersion: 'example.com/v2', kind: 'Widget', spec: { count: 7 } });
  });

  it('lists at v2 with one review for the whole list', async () => {
    await define();
    await seed('a', 'b', 'c');
    const list = await widgets('v2').list(ns);
    expect(list).toMatchObject({ apiVersion: 'example.com/v2', kind: 'WidgetList' });
    expect(list.items.map((i) => [i.metadata?.name, i.spec])).toEqual([
      ['a', { count: 1 }],
      ['b', { count: 2 }],
      ['c', { count: 3 }],
    ]);
    expect(hook.received).toHaveLength(1);
    expect((hook.received[0]!.review['request'] as { objects: unknown[] }).objects).toHaveLength(3);
  });

  it('watches at v2: initial and live events converted, in order', async () => {
    await define();
    await seed('a');
    const w = await widgets('v2').watch(ns);
    await widgets('v1').patch('a', { spec: { size: 5 } }, { type: 'merge', ...ns });
    await widgets('v1').create({ metadata: { name: 'b' }, spec: { size: 6 } }, ns);
    await widgets('v1').delete('a', ns);
    const events = await take(w, 4);
    expect(events.map((e) => `${e.type} ${e.object.metadata?.name} ${e.object.apiVersion} ${JSON.stringify(e.object.spec)}`)).toEqual([
      'ADDED a example.com/v2 {"count":1}',
      'MODIFIED a example.com/v2 {"count":5}',
      'ADDED b example.com/v2 {"count":6}',
      'DELETED a example.com/v2 {"count":5}',
    ]);
    w.close();
  });

  it('patches at v2 the object as v2 shows it', async () => {
    await define();
    await seed('a');
    const patched = await widgets('v2').patch('a', { spec: { count: 9 } }, { type: 'merge', ...ns });
    expect(patched).toMatchObject({ apiVersion: 'example.com/v2', spec: { count: 9 } });
    expect((await widgets('v1').get('a', ns)).spec).toEqual({ size: 9 });
    const json = await widgets('v2').patch('a', [{ op: 'replace', path: '/spec/count', value: 10 }], { type: 'json', ...ns });
    expect(json.spec).toEqual({ count: 10 });
  });

  it('speaks v1beta1 when that comes first in conversionReviewVersions', async () => {
    await define(undefined, ['v1beta1', 'v1']);
    await seed('a');
    expect((await widgets('v2').get('a', ns)).spec).toEqual({ count: 1 });
    expect(hook.received[0]!.review).toMatchObject({ apiVersion: 'apiextensions.k8s.io/v1beta1', kind: 'ConversionReview' });
  });

  it('converts objects stored at the old storage version after the definition moved it, sending only those', async () => {
    await define();
    await seed('old');
    const crds = cluster.client.resource({ group: 'apiextensions.k8s.io', version: 'v1', resource: 'customresourcedefinitions' });
    const crd = (await crds.get('widgets.example.com')) as CustomResourceDefinition;
    crd.spec.versions = crd.spec.versions.map((v) => ({ ...v, storage: v.name === 'v2' }));
    await crds.update(crd as KubeObject);
    await cluster.settle();
    await widgets('v2').create({ metadata: { name: 'new' }, spec: { count: 5 } }, ns);
    hook.received.length = 0;
    // At the new storage version, the old object converts and the new one is as stored.
    const list = await widgets('v2').list(ns);
    expect(list.items.map((i) => [i.metadata?.name, i.apiVersion ?? list.apiVersion, i.spec])).toEqual([
      ['new', 'example.com/v2', { count: 5 }],
      ['old', 'example.com/v2', { count: 1 }],
    ]);
    expect(hook.received.map((r) => (r.review['request'] as { objects: KubeObject[] }).objects.map((o) => o.metadata?.name))).toEqual([['old']]);
    expect((await widgets('v1').get('new', ns)).spec).toEqual({ size: 5 });
  });

  it('lets the webhook change labels and annotations, and nothing else of metadata', async () => {
    await define();
    await seed('a');
    hook.answer = (review) => {
      const answer = correctAnswer(review) as { response: { convertedObjects: KubeObject[] } };
      for (const o of answer.response.convertedObjects) o.metadata = { ...o.metadata, labels: { converted: 'yes' }, generation: 42, finalizers: ['x/y'] };
      return { status: 200, contentType: 'application/json', body: JSON.stringify(answer) };
    };
    const v2 = await widgets('v2').get('a', ns);
    expect(v2.metadata?.labels).toEqual({ converted: 'yes' });
    expect(v2.metadata?.generation).toBe(1);
    expect(v2.metadata?.finalizers).toBeUndefined();
  });
});

describe('a conversion webhook that fails', () => {
  const answerWith = (a: { status: number; contentType?: string; body: string }) => {
    hook.answer = () => a;
  };
  const reviewAnswer = (change: (answer: Record<string, unknown>) => void) => {
    hook.answer = (review) => {
      const answer = correctAnswer(review);
      change(answer);
      return { status: 200, contentType: 'application/json', body: JSON.stringify(answer) };
    };
  };

  it('is down: connection refused', async () => {
    await define();
    await seed('a');
    await hook.close();
    expect(await getFailure()).toBe(
      `${FAILED}Post "https://127.0.0.1:${hook.port}/convert?timeout=30s": dial tcp 127.0.0.1:${hook.port}: connect: connection refused`,
    );
  });

  it('has a certificate of another CA', async () => {
    const other = await generateServingCertificate({ hosts: ['127.0.0.1'], commonName: 'someone-else' });
    await define({ url: hook.url, caBundle: Buffer.from(other.ca.cert).toString('base64') });
    await seed('a');
    expect(await getFailure()).toBe(
      `${FAILED}Post "https://127.0.0.1:${hook.port}/convert?timeout=30s": tls: failed to verify certificate: x509: certificate signed by unknown authority`,
    );
  });

  it('has a certificate for another name', async () => {
    const elsewhere = await startConversionWebhook(await generateServingCertificate({ hosts: ['webhook.example'], commonName: 'elsewhere' }));
    try {
      await define({ url: elsewhere.url, caBundle: elsewhere.caBundle });
      await seed('a');
      expect(await getFailure()).toBe(
        `${FAILED}Post "https://127.0.0.1:${elsewhere.port}/convert?timeout=30s": tls: failed to verify certificate: x509: cannot validate certificate for 127.0.0.1 because it doesn't contain any IP SANs`,
      );
    } finally {
      await elsewhere.close();
    }
  });

  it('speaks plain HTTP', async () => {
    const plain = createHttpServer((_req, res) => res.end('{}'));
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    const port = (plain.address() as AddressInfo).port;
    try {
      await define({ url: `https://127.0.0.1:${port}/convert`, caBundle: hook.caBundle });
      await seed('a');
      expect(await getFailure()).toBe(`${FAILED}Post "https://127.0.0.1:${port}/convert?timeout=30s": http: server gave HTTP response to HTTPS client`);
    } finally {
      plain.closeAllConnections();
      await new Promise((resolve) => plain.close(resolve));
    }
  });

  it('answers 500 with text, with a Status, or with nothing', async () => {
    await define();
    await seed('a');
    answerWith({ status: 500, contentType: 'text/plain', body: 'boom\n' });
    expect(await getFailure()).toBe(`${FAILED}an error on the server ("boom") has prevented the request from succeeding`);
    answerWith({ status: 500, contentType: 'application/json', body: '{"oops":true}' });
    expect(await getFailure()).toBe(`${FAILED}an error on the server ("unknown") has prevented the request from succeeding`);
    answerWith({
      status: 500,
      contentType: 'application/json',
      body: JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'converter broke', code: 500 }),
    });
    expect(await getFailure()).toBe(`${FAILED}converter broke`);
    answerWith({ status: 404, contentType: 'text/plain', body: 'not here' });
    expect(await getFailure()).toBe(`${FAILED}the server could not find the requested resource`);
    answerWith({ status: 200, contentType: 'application/json', body: '' });
    expect(await getFailure()).toBe(`${FAILED}0-length response with status code: 200 and content type: application/json`);
  });

  it('answers garbage', async () => {
    await define();
    await seed('a');
    answerWith({ status: 200, contentType: 'application/json', body: '{not json' });
    expect(await getFailure()).toBe(`${FAILED}couldn't get version/kind; json parse error: invalid character 'n' looking for beginning of object key string`);
    answerWith({ status: 200, contentType: 'text/plain', body: 'hello' });
    expect(await getFailure()).toBe(
      `${FAILED}couldn't get version/kind; json parse error: json: cannot unmarshal string into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`,
    );
    answerWith({ status: 200, contentType: 'application/json', body: '{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","response":"yes"}' });
    expect(await getFailure()).toBe(`${FAILED}json: cannot unmarshal string into Go struct field ConversionReview.response of type v1.ConversionResponse`);
    answerWith({ status: 200, contentType: 'application/json', body: '{"apiVersion":"apiextensions.k8s.io/v1beta1","kind":"ConversionReview"}' });
    expect(await getFailure()).toBe(`${FAILED}converting (v1beta1.ConversionReview) to (v1.ConversionReview): unknown conversion`);
    answerWith({ status: 200, contentType: 'application/json', body: '{"kind":"ConversionReview","response":{}}' });
    expect(await getFailure()).toBe(`${FAILED}expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got /, Kind=ConversionReview`);
    answerWith({ status: 200, contentType: 'application/json', body: '{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview"}' });
    expect(await getFailure()).toBe(`${FAILED}no response provided`);
    answerWith({ status: 200, contentType: 'application/json; charset', body: '{}' });
    expect(await getFailure()).toBe(`${FAILED}Internal error occurred: mime: invalid media parameter`);
  });

  it('answers another uid', async () => {
    await define();
    await seed('a');
    reviewAnswer((a) => ((a['response'] as { uid: string }).uid = 'not-mine'));
    expect(await getFailure()).toMatch(/^conversion webhook for example\.com\/v1, Kind=Widget failed: expected response\.uid="[0-9a-f-]{36}", got "not-mine"$/);
  });

  it('reports a Failure result, with its message or without one', async () => {
    await define();
    await seed('a');
    reviewAnswer((a) => ((a['response'] as { result: unknown }).result = { status: 'Failure', message: 'v2 is not ready' }));
    expect(await getFailure()).toBe(`${FAILED}v2 is not ready`);
    reviewAnswer((a) => ((a['response'] as { result: unknown }).result = { status: 'Failure' }));
    expect(await getFailure()).toBe(`${FAILED}response.result.status was 'Failure', not 'Success'`);
  });

  it('answers the wrong number of objects', async () => {
    await define();
    await seed('a');
    reviewAnswer((a) => {
      const r = a['response'] as { convertedObjects: unknown[] };
      r.convertedObjects = [...r.convertedObjects, ...r.convertedObjects];
    });
    expect(await getFailure()).toBe('conversion webhook for example.com/v1, Kind=Widget returned 2 objects, expected 1');
  });

  it('changes what it may not change', async () => {
    await define();
    await seed('a');
    const editObject = (edit: (o: Record<string, unknown>) => void) =>
      reviewAnswer((a) => edit((a['response'] as { convertedObjects: Record<string, unknown>[] }).convertedObjects[0]!));
    editObject((o) => (o['metadata'] = { ...(o['metadata'] as object), name: 'b' }));
    expect(await getFailure()).toBe('conversion webhook for example.com/v1, Kind=Widget returned invalid object: must have the same name: a != b');
    editObject((o) => (o['metadata'] = { ...(o['metadata'] as object), uid: 'other' }));
    expect(await getFailure()).toMatch(
      /^conversion webhook for example\.com\/v1, Kind=Widget returned invalid object: must have the same UID: [0-9a-f-]{36} != other$/,
    );
    editObject((o) => (o['apiVersion'] = 'example.com/v1'));
    expect(await getFailure()).toBe(
      'conversion webhook for example.com/v1, Kind=Widget returned invalid object at index 0: invalid groupVersion (expected example.com/v2, received example.com/v1)',
    );
    editObject((o) => (o['kind'] = 'Gadget'));
    expect(await getFailure()).toBe(
      'conversion webhook for example.com/v1, Kind=Widget returned invalid object at index 0: invalid kind (expected Widget, received Gadget)',
    );
    editObject((o) => delete o['kind']);
    expect(await getFailure()).toMatch(/^Object 'Kind' is missing in '\{"apiVersion":"example.com\/v2",.*\}'$/);
    editObject((o) => (o['metadata'] = { ...(o['metadata'] as object), labels: { 'bad key!': 'x' } }));
    expect(await getFailure()).toBe(
      `conversion webhook for example.com/v1, Kind=Widget returned invalid metadata: metadata.labels: Invalid value: "bad key!": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
    );
    editObject((o) => (o['metadata'] = { ...(o['metadata'] as object), annotations: { a: 1 } }));
    expect(await getFailure()).toBe(
      'conversion webhook for example.com/v1, Kind=Widget returned invalid metadata: metadata.annotations[a] must be a string, but is int64 in converted object',
    );
  });

  it('fails every verb that needs it, and nothing is written', async () => {
    await define();
    await seed('a');
    answerWith({ status: 500, contentType: 'text/plain', body: 'down' });
    const create = await statusOf(() => widgets('v2').create({ metadata: { name: 'b' }, spec: { count: 1 } }, ns));
    expect(create).toMatchObject({
      code: 500,
      message: 'conversion webhook for example.com/v2, Kind=Widget failed: an error on the server ("down") has prevented the request from succeeding',
    });
    const list = await statusOf(() => widgets('v2').list(ns));
    expect(list).toMatchObject({ code: 500, message: `${FAILED}an error on the server ("down") has prevented the request from succeeding` });
    expect((await statusOf(() => widgets('v2').patch('a', { spec: { count: 2 } }, { type: 'merge', ...ns }))).code).toBe(500);
    expect((await statusOf(() => widgets('v2').deleteCollection(ns))).code).toBe(500);
    expect((await widgets('v1').list(ns)).items.map((i) => [i.metadata?.name, i.spec])).toEqual([['a', { size: 1 }]]);
    // The storage version needs no webhook.
    expect((await widgets('v1').get('a', ns)).spec).toEqual({ size: 1 });
  });

  it('ends a watch with an InternalError ERROR event', async () => {
    await define();
    const w = await widgets('v2').watch(ns);
    answerWith({ status: 500, contentType: 'text/plain', body: 'down' });
    await seed('a');
    const message = `${FAILED}an error on the server ("down") has prevented the request from succeeding`;
    expect(await take(w, 3)).toEqual([
      {
        type: 'ERROR',
        object: {
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Failure',
          message: `Internal error occurred: ${message}`,
          reason: 'InternalError',
          details: { causes: [{ message }] },
          code: 500,
        },
      },
    ]);
  });
});

describe('a conversion webhook given as a Service', () => {
  const services = () => cluster.client.resource({ group: '', version: 'v1', resource: 'services' });

  it('fails as kube-apiserver does when the Service is missing or has no endpoints', async () => {
    await define({ service: { namespace: 'default', name: 'converter', path: '/convert' }, caBundle: hook.caBundle });
    await seed('a');
    expect(await getFailure()).toBe(`${FAILED}Post "https://converter.default.svc:443/convert?timeout=30s": service "converter" not found`);
    const svc = await services().create({ metadata: { name: 'converter' }, spec: { ports: [{ port: 443, targetPort: 9443 }], selector: { app: 'c' } } }, ns);
    const ip = (svc.spec as { clusterIP: string }).clusterIP;
    expect(await getFailure()).toBe(`${FAILED}Post "https://converter.default.svc:443/convert?timeout=30s": dial tcp ${ip}:443: connect: connection refused`);
  });

  it('reaches an ExternalName Service, verifying the certificate for <name>.<namespace>.svc', async () => {
    const certs = await generateServingCertificate({ hosts: ['converter.default.svc'], commonName: 'svc' });
    const svcHook = await startConversionWebhook(certs);
    try {
      await services().create({ metadata: { name: 'converter' }, spec: { type: 'ExternalName', externalName: '127.0.0.1' } }, ns);
      await define({ service: { namespace: 'default', name: 'converter', path: '/convert', port: svcHook.port }, caBundle: svcHook.caBundle });
      await seed('a');
      expect((await widgets('v2').get('a', ns)).spec).toEqual({ count: 1 });
      expect(svcHook.received[0]!.headers.host).toBe(`converter.default.svc:${svcHook.port}`);
    } finally {
      await svcHook.close();
    }
  });
});
