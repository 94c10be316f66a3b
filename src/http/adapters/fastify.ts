/**
 * A Fastify (5) plugin serving a cluster's Kubernetes API:
 * `app.register(memkubeFastify, { cluster, prefix: '/k8s' })`. In its own encapsulated context it
 * replaces every content-type parser, Fastify's JSON parser and any the app added, with one that
 * parses nothing, so JSON, YAML, protobuf and the patch types reach the API raw (and Fastify's
 * `bodyLimit` does not apply: the API's 3 MiB does). A stream a `preParsing` hook put in place of
 * the request's (a raw-body plugin, decompression) is read whole instead; a body an `onRequest`
 * hook read and left nothing of is answered at once (`earlier-body.ts`).
 *
 * @module memkube/adapters/fastify
 */
import type { FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { MAX_BODY_BYTES } from '../decode.js';
import { serveNodeRequest } from '../node-bridge.js';
import { earlierBody, LOST, sendLostBody } from './earlier-body.js';
import { mountedHandlers, type AdapterOptions, type HttpCluster } from './mount.js';

/**
 * Options of {@link memkubeFastify}: the cluster, and the handler's (Fastify's `prefix` mounts it).
 * @category HTTP and adapters
 */
export interface MemkubeFastifyOptions extends Omit<AdapterOptions, 'prefix'> {
  cluster: HttpCluster;
}

/**
 * The plugin; register it with `{ cluster, prefix }`.
 * @category HTTP and adapters
 */
export const memkubeFastify: FastifyPluginCallback<MemkubeFastifyOptions> = (instance, options, done) => {
  // Fastify takes `prefix` out of the options and mounts the plugin's routes under it.
  const { cluster, ...handlerOptions } = options;
  const mounted = mountedHandlers(cluster, { ...handlerOptions, prefix: '' });
  const handler = mounted.handler(mounted.prefixAt(instance.prefix));
  const limit = handlerOptions.maxBodyBytes ?? MAX_BODY_BYTES;
  instance.removeAllContentTypeParsers();
  instance.addContentTypeParser('*', (request, payload, parsed) => {
    // The request's own stream is left to the bridge, which streams it.
    if (payload === request.raw) return parsed(null, undefined);
    readAtMost(payload, limit).then(
      (bytes) => parsed(null, bytes),
      (e: Error) => parsed(e, undefined),
    );
  });
  const serve = (request: FastifyRequest, reply: FastifyReply) => {
    reply.hijack();
    const body = earlierBody(request.raw, { raw: [request.body, (request as { rawBody?: unknown }).rawBody], parsed: [] });
    if (body === LOST) return sendLostBody('Fastify', reply.raw);
    return serveNodeRequest(handler, request.raw, reply.raw, { body });
  };
  instance.all('/', serve);
  instance.all('/*', serve);
  done();
};

/** A stream's bytes, up to one past `limit` (enough for the API's 413); the rest is discarded. */
function readAtMost(stream: Readable, limit: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = () => {
      stream.off('data', onData).off('end', finish).off('error', onError);
      resolve(Buffer.concat(chunks, size));
    };
    const onData = (chunk: Buffer | string) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      chunks.push(bytes);
      size += bytes.byteLength;
      if (size > limit) {
        finish();
        stream.resume();
      }
    };
    const onError = (e: Error) => {
      stream.off('data', onData).off('end', finish);
      reject(e);
    };
    stream.on('data', onData).on('end', finish).on('error', onError);
  });
}
