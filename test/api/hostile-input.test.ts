import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Cluster } from '../../src/cluster.js';
import { ApiError } from '../../src/machinery/errors.js';
import type { ApiRequest } from '../../src/machinery/request.js';
import { testCluster } from '../support/cluster.js';

let cluster: Cluster;
beforeAll(async () => {
  cluster = await testCluster();
});
afterAll(async () => {
  await cluster.close();
});

const USER = { username: 'fuzzer', groups: [] };
const RESOURCES = ['configmaps', 'secrets', 'pods', 'services', 'namespaces', 'nodes', 'events', 'serviceaccounts', 'persistentvolumeclaims'];

/** Runs a request; answers the HTTP code it would get, failing the test on anything but an ApiError. */
async function codeOf(req: ApiRequest): Promise<number> {
  try {
    return (await cluster.request(req)).code;
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    return e.code;
  }
}

async function snapshot(): Promise<string> {
  const parts: string[] = [];
  for (const resource of RESOURCES) {
    const list = await cluster.request({ verb: 'list', resource: { group: '', version: 'v1', resource }, user: USER });
    parts.push(JSON.stringify(list.body));
  }
  return parts.join('\n');
}

const hostileString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom('', '.', '..', 'a/b', 'a%2Fb', '\u0000', '\u202e', 'x'.repeat(300), 'A', '-a', 'a-', '😀'),
);

describe('hostile input', () => {
  it('answers random bodies, names and options with 2xx or 4xx, never 5xx or a crash', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...RESOURCES),
        fc.constantFrom('create', 'update', 'delete', 'get'),
        fc.oneof(
          fc.anything(),
          fc.record(
            { metadata: fc.record({ name: hostileString, labels: fc.dictionary(hostileString, hostileString) }, { requiredKeys: [] }), spec: fc.anything() },
            { requiredKeys: [] },
          ),
        ),
        hostileString,
        fc.record({
          dryRun: fc.option(fc.array(hostileString, { maxLength: 2 }), { nil: undefined }),
          fieldManager: fc.option(hostileString, { nil: undefined }),
          fieldValidation: fc.option(hostileString, { nil: undefined }),
        }),
        async (resource, verb, body, name, writeOptions) => {
          const code = await codeOf({
            verb: verb as ApiRequest['verb'],
            resource: { group: '', version: 'v1', resource },
            namespace: resource === 'namespaces' || resource === 'nodes' ? undefined : 'default',
            name: verb === 'create' ? undefined : name,
            body,
            writeOptions,
            user: USER,
          });
          expect(code).toBeGreaterThanOrEqual(200);
          expect(code).toBeLessThan(500);
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('leaves the store exactly as it was after rejected writes', async () => {
    const before = await snapshot();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...RESOURCES), fc.anything(), async (resource, junk) => {
        const code = await codeOf({
          verb: 'create',
          resource: { group: '', version: 'v1', resource },
          namespace: 'default',
          body: { metadata: { name: 'INVALID NAME' }, junk },
          writeOptions: { fieldValidation: 'Strict' },
          user: USER,
        });
        expect(code).toBeGreaterThanOrEqual(400);
        expect(code).toBeLessThan(500);
      }),
      { numRuns: 300 },
    );
    expect(await snapshot()).toBe(before);
  });

  it('answers huge strings and deep nesting with 4xx', async () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 10_000; i++) deep = { a: deep };
    const code = await codeOf({
      verb: 'create',
      resource: { group: '', version: 'v1', resource: 'configmaps' },
      namespace: 'default',
      body: { metadata: { name: 'deep' }, data: deep },
      user: USER,
    });
    expect(code).toBe(400);
    const huge = await codeOf({
      verb: 'create',
      resource: { group: '', version: 'v1', resource: 'configmaps' },
      namespace: 'default',
      body: { metadata: { name: 'n'.repeat(1_000_000) } },
      user: USER,
    });
    expect(huge).toBe(422);
  });
});
