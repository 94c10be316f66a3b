/**
 * A Fastify (5) plugin serving a cluster's Kubernetes API:
 * `app.register(memkubeFastify, { cluster, prefix: '/k8s' })`. In its own encapsulated context it
 * replaces every content-type parser with one that reads nothing, so JSON, YAML, protobuf and the
 * patch types reach the API raw (and Fastify's `bodyLimit` does not apply: the API's 3 MiB does).
 */
import type { FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
import { serveNodeRequest } from '../node-bridge.js';
import { mountedHandlers, type AdapterOptions, type HttpCluster } from './mount.js';

/** Options of {@link memkubeFastify}: the cluster, and the handler's (Fastify's `prefix` mounts it). */
export interface MemkubeFastifyOptions extends Omit<AdapterOptions, 'prefix'> {
  cluster: HttpCluster;
}

/** The plugin; register it with `{ cluster, prefix }`. */
export const memkubeFastify: FastifyPluginCallback<MemkubeFastifyOptions> = (instance, options, done) => {
  // Fastify takes `prefix` out of the options and mounts the plugin's routes under it.
  const { cluster, ...handlerOptions } = options;
  const mounted = mountedHandlers(cluster, { ...handlerOptions, prefix: '' });
  const handler = mounted.handler(mounted.prefixAt(instance.prefix));
  instance.removeAllContentTypeParsers();
  instance.addContentTypeParser('*', (_request, _payload, parsed) => parsed(null, undefined));
  const serve = (request: FastifyRequest, reply: FastifyReply) => {
    reply.hijack();
    return serveNodeRequest(handler, request.raw, reply.raw);
  };
  instance.all('/', serve);
  instance.all('/*', serve);
  done();
};
