/**
 * The ConversionReview exchange in detail: the request as Go encodes it, every way the
 * apiserver's codec and checks refuse an answer, and the converter's own rules (what it skips,
 * its deadline, a client it cannot build).
 */
import { createServer, type Server } from 'node:https';
import { createServer as createHttpServer, type IncomingMessage } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ConversionReviewError,
  conversionReviewBody,
  convertedObjectsOf,
  goMarshal,
  gvkString,
  reviewVersionOf,
  type ReviewVersion,
} from '../../../../src/kinds/apiextensions/custom-resources/conversion-review.js';
import { webhookConversions } from '../../../../src/kinds/apiextensions/custom-resources/webhook-conversion.js';
import type { CustomResourceDefinition } from '../../../../src/kinds/index.js';
import { ApiError } from '../../../../src/machinery/errors.js';
import type { KubeObject } from '../../../../src/schema/define-kind.js';
import { startConversionWebhook, webhookCertificates } from '../../../support/conversion-webhook.js';
import { httpConnectDialer } from '../../../../src/webhook/egress-dialer.js';

const res = (body: string, status = 200, contentType = 'application/json') => ({ status, contentType, body: Buffer.from(body) });

function refusal(body: string, version: ReviewVersion = 'v1', uid = 'u1'): string {
  try {
    convertedObjectsOf(res(body), version, uid);
  } catch (e) {
    expect(e).toBeInstanceOf(ConversionReviewError);
    return (e as Error).message;
  }
  throw new Error('accepted');
}

const ok = (response: object, extra: object = {}) =>
  JSON.stringify({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'ConversionReview',
    ...extra,
    response: { uid: 'u1', result: { status: 'Success' }, ...response },
  });

describe('the request', () => {
  it('is the review in Go struct order with each object in Go map order, and a newline', () => {
    const body = conversionReviewBody('v1', 'u1', 'example.com/v2', [
      { metadata: { name: 'a', labels: { z: '1', a: '<&>' } }, kind: 'Widget', apiVersion: 'example.com/v1', spec: { b: 1, a: [true, null, 1.5] } },
    ]);
    expect(body).toBe(
      '{"kind":"ConversionReview","apiVersion":"apiextensions.k8s.io/v1","request":{"uid":"u1","desiredAPIVersion":"example.com/v2","objects":[' +
        '{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"labels":{"a":"\\u003c\\u0026\\u003e","z":"1"},"name":"a"},"spec":{"a":[true,null,1.5],"b":1}}' +
        ']},"response":{"uid":"","convertedObjects":null,"result":{"metadata":{}}}}\n',
    );
  });

  it('sorts keys by bytes, as Go does (upper case first, non-ASCII last)', () => {
    expect(goMarshal({ b: 1, B: 2, é: 3, a: 4, '10': 5, '9': 6 })).toBe('{"10":5,"9":6,"B":2,"a":4,"b":1,"é":3}');
  });

  it('is at the first review version the server speaks', () => {
    expect(reviewVersionOf(['v2', 'v1beta1', 'v1'])).toBe('v1beta1');
    expect(reviewVersionOf(['v1', 'v1beta1'])).toBe('v1');
    expect(reviewVersionOf(['v2'])).toBeUndefined();
  });
});

describe('an answer', () => {
  it('gives its converted objects when it is a successful review for the request', () => {
    expect(convertedObjectsOf(res(ok({ convertedObjects: [{ a: 1 }] })), 'v1', 'u1')).toEqual([{ a: 1 }]);
    expect(convertedObjectsOf(res(ok({ convertedObjects: null })), 'v1', 'u1')).toEqual([]);
    // YAML decodes too, as the universal deserializer reads it.
    const yaml =
      'apiVersion: apiextensions.k8s.io/v1\nkind: ConversionReview\nresponse:\n  uid: u1\n  result: {status: Success}\n  convertedObjects: [{a: 1}]\n';
    expect(convertedObjectsOf(res(yaml, 200, 'application/yaml'), 'v1', 'u1')).toEqual([{ a: 1 }]);
    // v1beta1 answers are not checked for their kind or uid.
    expect(convertedObjectsOf(res('{"response":{"result":{"status":"Success"},"convertedObjects":[1]}}'), 'v1beta1', 'u1')).toEqual([1]);
  });

  it('is refused by the codec as Go refuses it', () => {
    expect(refusal('{"apiVersion":5}')).toBe(
      "couldn't get version/kind; json parse error: json: cannot unmarshal number into Go struct field .apiVersion of type string",
    );
    expect(refusal('[1]')).toBe(
      `couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`,
    );
    expect(refusal('{"apiVersion":"a/b/c"}')).toBe('unexpected GroupVersion string: a/b/c');
    expect(refusal('{"apiVersion":"example.com/","kind":"ConversionReview"}')).toBe(
      `Object 'apiVersion' is missing in '{"apiVersion":"example.com/","kind":"ConversionReview"}'`,
    );
    expect(refusal('{"apiVersion":"example.com/v1","kind":"Widget"}')).toBe(
      'no kind "Widget" is registered for version "example.com/v1" in scheme "k8s.io/apiserver/pkg/util/webhook/client.go:74"',
    );
    expect(refusal('{"apiVersion":"v1","kind":"Status","status":"Failure"}')).toBe('converting (v1.Status) to (v1.ConversionReview): unknown conversion');
    expect(refusal('{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition"}')).toBe(
      'converting (v1.CustomResourceDefinition) to (v1.ConversionReview): unknown conversion',
    );
    expect(refusal('{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview"}', 'v1beta1')).toBe(
      'converting (v1.ConversionReview) to (v1beta1.ConversionReview): unknown conversion',
    );
    expect(refusal('{"a":1} x')).toBe("couldn't get version/kind; json parse error: invalid character 'x' after top-level value");
    expect(refusal('a: [b')).toMatch(/^error converting YAML to JSON: yaml: /);
    expect(refusal(`a: ${'['.repeat(100)}`)).toBe('error converting YAML to JSON: yaml: memkube does not parse YAML nested more than 64 levels deep');
  });

  it('is refused for a field of the wrong type, naming the first in document order as Go does', () => {
    expect(refusal(ok({ uid: 5 }))).toBe('json: cannot unmarshal number into Go struct field ConversionResponse.response.uid of type types.UID');
    expect(refusal(ok({ convertedObjects: {} }))).toBe(
      'json: cannot unmarshal object into Go struct field ConversionResponse.response.convertedObjects of type []runtime.RawExtension',
    );
    expect(refusal(ok({ result: { status: 'Success', code: 3000000000 } }))).toBe(
      'json: cannot unmarshal number 3000000000 into Go struct field Status.response.result.code of type int32',
    );
    expect(refusal(ok({ result: { status: 'Success', details: { causes: [{ message: 1 }] } } }))).toBe(
      'json: cannot unmarshal number into Go struct field StatusCause.response.result.details.causes.message of type string',
    );
    expect(refusal(ok({ result: 'x' }))).toBe('json: cannot unmarshal string into Go struct field ConversionResponse.response.result of type v1.Status');
    expect(refusal(ok({}, { request: { objects: 'x' } }))).toBe(
      'json: cannot unmarshal string into Go struct field ConversionRequest.request.objects of type []runtime.RawExtension',
    );
    // Unknown fields are ignored; nulls leave a field empty.
    expect(convertedObjectsOf(res(ok({ extra: [1], result: { status: 'Success', reason: null } })), 'v1', 'u1')).toEqual([]);
  });

  it('is refused by the converter when it is not the answer to this request', () => {
    expect(refusal('{"apiVersion":"apiextensions.k8s.io/v1","response":{}}')).toBe(
      'expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got apiextensions.k8s.io/v1, Kind=',
    );
    expect(refusal('null')).toBe('expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got /, Kind=');
    expect(refusal(ok({}).replace('"response":{', '"response":null,"x":{'))).toBe('no response provided');
    expect(refusal(ok({ uid: 'other' }))).toBe('expected response.uid="u1", got "other"');
    expect(refusal(ok({ result: {} }))).toBe("response.result.status was '', not 'Success'");
    expect(refusal(ok({ result: { status: 'Failure', message: 'nope' } }))).toBe('nope');
  });
});

describe('gvkString', () => {
  it('prints as schema.GroupVersionKind does', () => {
    expect(gvkString('example.com/v1', 'Widget')).toBe('example.com/v1, Kind=Widget');
    expect(gvkString('v1', 'Pod')).toBe('/v1, Kind=Pod');
    expect(gvkString('a/b/c', 'X')).toBe('/, Kind=X');
    expect(gvkString(undefined, undefined)).toBe('/, Kind=');
  });
});

describe('the converter', () => {
  const servers: Server[] = [];
  afterEach(async () => {
    for (const s of servers.splice(0)) {
      s.closeAllConnections();
      await new Promise((r) => s.close(r));
    }
  });

  const crd = (webhook: object, versions = ['v1', 'v2']): CustomResourceDefinition =>
    ({
      metadata: { name: 'widgets.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { plural: 'widgets', kind: 'Widget' },
        versions: versions.map((name, i) => ({ name, served: true, storage: i === 0 })),
        conversion: { strategy: 'Webhook', webhook },
      },
    }) as CustomResourceDefinition;
  const widget = (apiVersion: string): KubeObject => ({ apiVersion, kind: 'Widget', metadata: { name: 'a', namespace: 'default', uid: 'x' } });

  async function failureOf(p: unknown): Promise<ApiError> {
    try {
      await p;
    } catch (e) {
      expect(e).toBeInstanceOf(ApiError);
      return e as ApiError;
    }
    throw new Error('converted');
  }

  it('converts nothing, synchronously, when every object is at the desired version already', () => {
    const v2 = webhookConversions(crd({ clientConfig: { url: 'https://127.0.0.1:1/x' }, conversionReviewVersions: ['v1'] }))('v2');
    const out = v2.fromStorageMany!([widget('example.com/v2'), { apiVersion: 'example.com/v1', kind: 'Widget' }]);
    expect(out).toEqual([widget('example.com/v2'), { apiVersion: 'example.com/v2', kind: 'Widget' }]);
  });

  it("reaches the webhook through the egress dialer it is given (an HTTP CONNECT proxy), or fails with the proxy's refusal", async () => {
    const hook = await startConversionWebhook();
    const tunnels: string[] = [];
    const sockets: Socket[] = [];
    let refuse = false;
    const proxy = createHttpServer();
    proxy.on('connect', (req: IncomingMessage, client: Socket) => {
      tunnels.push(req.url ?? '');
      sockets.push(client);
      if (refuse) {
        client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
        return;
      }
      const [host, port] = (req.url ?? '').split(':');
      const upstream = connect(Number(port), host, () => {
        sockets.push(upstream);
        client.write('HTTP/1.1 200 Connection established\r\n\r\n');
        upstream.pipe(client);
        client.pipe(upstream);
      });
      upstream.on('error', () => client.destroy());
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    const proxyAddress = `127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    try {
      const egress = httpConnectDialer({ proxy: { tcp: { address: proxyAddress } } });
      const v2 = webhookConversions(crd({ clientConfig: { url: hook.url, caBundle: hook.caBundle }, conversionReviewVersions: ['v1'] }), { egress })('v2');
      expect(await v2.fromStorage(widget('example.com/v1'))).toMatchObject({ apiVersion: 'example.com/v2' });
      expect(tunnels).toEqual([`127.0.0.1:${hook.port}`]);
      refuse = true;
      const e = await failureOf(v2.fromStorage(widget('example.com/v1')));
      expect(e.message).toContain(`proxy error from ${proxyAddress} while dialing 127.0.0.1:${hook.port}, code 403`);
    } finally {
      // A tunnel's sockets leave the server's keeping once CONNECT answers: they are ended here.
      for (const socket of sockets) socket.destroy();
      proxy.closeAllConnections();
      await new Promise((r) => proxy.close(r));
      await hook.close();
    }
  });

  it('times out after its deadline, naming it in the URL', async () => {
    const certs = await webhookCertificates();
    const server = createServer({ cert: certs.serving.cert, key: certs.serving.key }, () => undefined);
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    const caBundle = Buffer.from(certs.ca.cert).toString('base64');
    const v2 = webhookConversions(crd({ clientConfig: { url: `https://127.0.0.1:${port}/convert`, caBundle }, conversionReviewVersions: ['v1'] }), {
      timeoutMs: 100,
    })('v2');
    const e = await failureOf(v2.fromStorage(widget('example.com/v1')));
    expect(e.status).toMatchObject({
      code: 500,
      message: `conversion webhook for example.com/v1, Kind=Widget failed: Post "https://127.0.0.1:${port}/convert?timeout=100ms": context deadline exceeded`,
    });
    expect(e.reason).toBeUndefined();
  });

  it('refuses every conversion when the client cannot be built, as the apiserver refuses the resource', async () => {
    const bad = webhookConversions(
      crd({ clientConfig: { url: 'https://127.0.0.1:1/x', caBundle: Buffer.from('not a certificate').toString('base64') }, conversionReviewVersions: ['v1'] }),
    )('v2');
    const e = await failureOf((async () => bad.fromStorage(widget('example.com/v1')))());
    expect(e.status).toMatchObject({ code: 500, reason: 'InternalError', message: 'Internal error occurred: error resolving resource' });
  });

  it('refuses to convert without a review version it speaks', async () => {
    const none = webhookConversions(crd({ clientConfig: { url: 'https://127.0.0.1:1/x' }, conversionReviewVersions: ['v9'] }))('v2');
    const e = await failureOf((async () => none.fromStorage(widget('example.com/v1')))());
    expect(e.status).toMatchObject({ code: 500, message: 'no supported conversion review versions' });
  });
});
