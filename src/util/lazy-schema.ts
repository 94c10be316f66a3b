/**
 * A value built on its first use and kept: `build` runs once, at the first call. The configuration
 * kinds' zod schemas are declared this way, so that loading memkube builds none of them until a
 * configuration file is read (the generated Kubernetes types have the same helper of their own,
 * since they import nothing but zod).
 */
export function lazySchema<T>(build: () => T): () => T {
  let built: T | undefined;
  return () => (built ??= build());
}
