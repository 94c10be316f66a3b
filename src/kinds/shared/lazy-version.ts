import type { z } from 'zod';
import type { KindVersion, KubeObject } from '../../schema/define-kind.js';

/**
 * A built-in kind's version whose schema is built on the kind's first use (its `schema` is a
 * getter calling `schema`): `lazyVersion('v1', DaemonSetSchema, { storage: true })`. Served unless
 * `rest` says otherwise.
 */
export function lazyVersion<T extends KubeObject>(
  name: string,
  schema: () => z.ZodType<T>,
  rest: Omit<KindVersion<T>, 'name' | 'schema'> = {},
): KindVersion<T> {
  return {
    name,
    get schema() {
      return schema();
    },
    served: true,
    ...rest,
  };
}
