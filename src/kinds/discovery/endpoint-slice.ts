/** EndpointSlice (discovery.k8s.io/v1, namespaced). */
import { defineKind, type KubeObject } from '../../schema/define-kind.js';
import { fieldNode, semanticEqual } from '../shared/semantic-equal.js';
import { jsonEqual } from '../../util/json-equal.js';
import { EndpointSlice as EndpointSliceSchema } from '../types/discovery-v1.js';
import { defaultEndpointSlice, validateEndpointSlice } from './endpoint-slice/validation.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** An EndpointSlice object. */
export type EndpointSlice = EndpointSliceSchema;

/** `listWithMoreString`: up to three items, then `+ N more...`; `<unset>` when none. */
function listWithMore(items: readonly string[]): string {
  const list = items.slice(0, 3);
  const ret = list.join(',');
  if (items.length > 3) return `${ret} + ${items.length - 3} more...`;
  return ret === '' ? '<unset>' : ret;
}

/** `formatDiscoveryPorts`: the number, else the name, else `*`. */
const formatPorts = (s: Readonly<EndpointSlice>): string =>
  listWithMore((s.ports ?? []).map((p) => (p.port !== undefined && p.port !== null ? String(p.port) : (p.name ?? '*'))));

/** `formatDiscoveryEndpoints`: every address of every endpoint. */
const formatEndpoints = (s: Readonly<EndpointSlice>): string => listWithMore((s.endpoints ?? []).flatMap((e) => e.addresses ?? []));

/** Everything but metadata. */
function body(obj: Readonly<KubeObject>): Record<string, unknown> {
  const { metadata: _m, apiVersion: _a, kind: _k, ...rest } = obj;
  return rest;
}

/** The v1 strategy clears `deprecatedTopology` of endpoints a write changes (`dropTopologyOnV1`). */
function dropTopology(slice: EndpointSlice, old?: Readonly<EndpointSlice>): void {
  if (old && semanticEqual(slice.endpoints, old.endpoints)) return;
  for (const ep of slice.endpoints ?? []) delete ep.deprecatedTopology;
}

/**
 * EndpointSlice: ports defaulted (name `""`, protocol TCP), the v1.36 validation (address types and
 * addresses, limits, hints, ports), addressType immutable; the generation moves with any change
 * outside metadata and with label changes.
 */
export const EndpointSliceKind = defineKind<EndpointSlice>({
  group: 'discovery.{api_domain}',
  kind: 'EndpointSlice',
  plural: 'endpointslices',
  scope: 'Namespaced',
  // pkg/registry/discovery/endpointslice/strategy.go: 1 on create, +1 when anything but
  // metadata changes, or the labels do.
  generation: {
    changed: (obj, old) =>
      !semanticEqual(body(obj), body(old), fieldNode(EndpointSliceSchema())) || !jsonEqual(obj.metadata?.labels ?? {}, old.metadata?.labels ?? {}),
  },
  versions: [lazyVersion('v1', EndpointSliceSchema, { storage: true })],
  schemaRequired: false,
  immutableFields: ['addressType'],
  printerColumns: [
    {
      name: 'AddressType',
      type: 'string',
      description: 'addressType specifies the type of address carried by this EndpointSlice.',
      value: (s) => s.addressType ?? '',
    },
    { name: 'Ports', type: 'string', description: 'ports specifies the list of network ports exposed by each endpoint in this slice.', value: formatPorts },
    { name: 'Endpoints', type: 'string', description: 'endpoints is a list of unique endpoints in this slice.', value: formatEndpoints },
  ],
  strategy: {
    prepareForCreate: (slice) => dropTopology(slice),
    prepareForUpdate: (slice, old) => dropTopology(slice, old),
    defaults: defaultEndpointSlice,
    validate: (slice) => validateEndpointSlice(slice),
  },
});
