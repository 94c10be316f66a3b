/**
 * A real HTTPS conversion webhook for tests, on 127.0.0.1 and a free port, with a CA and a serving
 * certificate made in process (src/pki/self-signed.ts). By default it converts example.com
 * Widgets between v1 (`spec.size`) and v2 (`spec.count`) as a well-behaved webhook does; a test
 * replaces `answer` to make it misbehave. Every request it got is kept.
 */
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { generateServingCertificate, type ServingCertificate } from '../../src/pki/self-signed.js';

/** One request the webhook received. */
export interface ReceivedReview {
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
  readonly review: Record<string, unknown>;
}

/** What the webhook sends back: a status, a Content-Type and a body text. */
export interface WebhookAnswer {
  status: number;
  contentType?: string;
  body: string;
}

type JsonObject = Record<string, unknown>;

/** Renames a field of `spec`: what the default webhook does between v1 and v2. */
export function convertWidget(obj: JsonObject, desiredAPIVersion: string): JsonObject {
  const to = desiredAPIVersion.split('/')[1];
  const spec = { ...((obj['spec'] as JsonObject | undefined) ?? {}) };
  if (to === 'v2' && 'size' in spec) {
    spec['count'] = spec['size'];
    delete spec['size'];
  } else if (to === 'v1' && 'count' in spec) {
    spec['size'] = spec['count'];
    delete spec['count'];
  }
  return { ...obj, apiVersion: desiredAPIVersion, ...(obj['spec'] === undefined ? {} : { spec }) };
}

/** The answer of a correct webhook to `review` (at the review's own version). */
export function correctAnswer(review: JsonObject): JsonObject {
  const request = review['request'] as { uid: string; desiredAPIVersion: string; objects: JsonObject[] };
  return {
    apiVersion: review['apiVersion'],
    kind: 'ConversionReview',
    response: {
      uid: request.uid,
      result: { status: 'Success' },
      convertedObjects: request.objects.map((o) => convertWidget(o, request.desiredAPIVersion)),
    },
  };
}

/** A running test webhook. */
export interface ConversionWebhook {
  readonly port: number;
  readonly url: string;
  readonly certs: ServingCertificate;
  /** base64 of the CA certificate: the `caBundle` to trust the webhook with. */
  readonly caBundle: string;
  readonly received: ReceivedReview[];
  /** How the webhook answers a review; the correct answer by default. */
  answer: (review: JsonObject, received: ReceivedReview) => WebhookAnswer | Promise<WebhookAnswer>;
  close(): Promise<void>;
}

/** Serving certificates for 127.0.0.1, made once per test file. */
let shared: Promise<ServingCertificate> | undefined;
export function webhookCertificates(): Promise<ServingCertificate> {
  return (shared ??= generateServingCertificate({ hosts: ['127.0.0.1'], commonName: 'conversion-webhook' }));
}

/** Starts a webhook with `certs` (127.0.0.1's by default). */
export async function startConversionWebhook(certs?: ServingCertificate): Promise<ConversionWebhook> {
  const c = certs ?? (await webhookCertificates());
  const received: ReceivedReview[] = [];
  const hook = {
    answer: (review: JsonObject): WebhookAnswer => ({ status: 200, contentType: 'application/json', body: JSON.stringify(correctAnswer(review)) }),
  } as Pick<ConversionWebhook, 'answer'>;
  const server: Server = createServer({ cert: c.serving.cert, key: c.serving.key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (d: Buffer) => chunks.push(d));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let review: JsonObject = {};
      try {
        review = JSON.parse(text) as JsonObject;
      } catch {
        // kept as received
      }
      const got: ReceivedReview = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, text, review };
      received.push(got);
      void Promise.resolve(hook.answer(review, got)).then(
        (a) => {
          res.writeHead(a.status, a.contentType === undefined ? {} : { 'Content-Type': a.contentType });
          res.end(a.body);
        },
        () => res.destroy(),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(hook, {
    port,
    url: `https://127.0.0.1:${port}/convert`,
    certs: c,
    caBundle: Buffer.from(c.ca.cert).toString('base64'),
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
