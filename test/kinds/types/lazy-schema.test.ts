import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { lazySchema } from '../../../src/kinds/types/lazy-schema.js';
import { StatefulSet } from '../../../src/kinds/types/apps-v1.js';

describe('lazySchema', () => {
  it('builds on the first call, once, and answers the same schema after', () => {
    let builds = 0;
    const Widget = lazySchema(() => {
      builds++;
      return z.object({ size: z.int32() });
    });
    expect(builds).toBe(0);
    const first = Widget();
    expect(builds).toBe(1);
    expect(Widget()).toBe(first);
    expect(builds).toBe(1);
    expect(first.parse({ size: 3 })).toEqual({ size: 3 });
  });

  it('declares the generated types: a call answers the registered schema, the same one each time', () => {
    const schema = StatefulSet();
    expect(StatefulSet()).toBe(schema);
    expect(z.globalRegistry.get(schema)?.id).toBe('io.k8s.api.apps.v1.StatefulSet');
    // Fields reach other modules' schemas through getters, built when first read.
    expect(z.globalRegistry.get(schema.shape.spec.unwrap().shape.template)?.id).toBe('io.k8s.api.core.v1.PodTemplateSpec');
  });
});
