/** Protobuf request bodies through `cluster.fetch`: decoded for the built-in kinds, 400/415 otherwise. */
import { describe, expect, it } from 'vitest';
import { useTestCluster } from '../../support/cluster.js';
import { entry, envelope, msg, str } from './writer.js';

const BASE = 'http://memkube.test';
const PROTOBUF = 'application/vnd.kubernetes.protobuf';

describe('protobuf request bodies', () => {
  const cluster = useTestCluster();
  const post = (path: string, body: Uint8Array, contentType = PROTOBUF) =>
    cluster.fetch(new Request(BASE + path, { method: 'POST', body, headers: { 'Content-Type': contentType, Accept: `${PROTOBUF}, application/json` } }));

  it('creates a ConfigMap sent as protobuf and answers in JSON', async () => {
    const res = await post(
      '/api/v1/namespaces/default/configmaps',
      envelope('v1', 'ConfigMap', [msg(1, str(1, 'x'), str(2, ''), str(3, '')), entry(2, 'a', 'b')]),
    );
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'default' }, data: { a: 'b' } });
  });

  it('is 400 for malformed protobuf, with the summary Kubernetes gives', async () => {
    let res = await post('/api/v1/namespaces/default/configmaps', Buffer.from('{"kind":"ConfigMap"}'));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      reason: 'BadRequest',
      message:
        'the object provided is unrecognized (must be of type ConfigMap): provided data does not appear to be a protobuf message, expected prefix [107 56 115 0] ({"kind":"ConfigMap"})',
    });
    res = await post('/api/v1/namespaces/default/configmaps', Uint8Array.of(0x6b, 0x38, 0x73, 0x00, 0x12, 0x7f));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ message: expect.stringContaining('runs past the end of the data') });
  });

  it('is 415 for a kind without a descriptor', async () => {
    const res = await post('/api/v1/namespaces/default/configmaps', envelope('example.com/v1', 'Widget', [msg(1, str(1, 'w'))]));
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ reason: 'UnsupportedMediaType' });
  });
});
