/**
 * Value transformers: what kube-apiserver does to an object's bytes between its codec and etcd
 * (k8s.io/apiserver pkg/storage/value/transformer.go). A transformer turns plaintext into what is
 * stored and back; a list of prefixed transformers writes with the first and reads with the one
 * whose prefix the stored bytes start with.
 */

/** Thrown when stored bytes cannot be read back; the message is kube-apiserver's. */
export class TransformError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TransformError';
  }
}

/** What reading stored bytes answers. */
export interface ReadResult {
  readonly data: Uint8Array;
  /**
   * Read with a transformer other than the one that writes (a later provider or key): writing
   * the object again would store it differently, so a rewrite must not be skipped as a no-op.
   */
  readonly stale: boolean;
}

/**
 * One transformation between plaintext and stored bytes. `authenticatedData` is the object's
 * storage key (AES-GCM binds the ciphertext to it; the other providers ignore it).
 */
export interface ValueTransformer {
  /** Stored bytes back to plaintext; throws {@link TransformError}. */
  fromStorage(data: Uint8Array, authenticatedData: Uint8Array): ReadResult;
  /** Plaintext to the bytes to store. */
  toStorage(data: Uint8Array, authenticatedData: Uint8Array): Uint8Array;
}

/** A transformer and the prefix its output carries (empty for identity). */
export interface PrefixedTransformer {
  readonly prefix: Uint8Array;
  readonly transformer: ValueTransformer;
}

function startsWith(data: Uint8Array, prefix: Uint8Array): boolean {
  if (data.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (data[i] !== prefix[i]) return false;
  return true;
}

/**
 * Go's `errors.Reduce(errors.NewAggregate(errs))` text: one message alone, several (deduplicated)
 * in brackets.
 */
export function aggregateText(messages: readonly string[]): string {
  const unique = [...new Set(messages)];
  return unique.length === 1 ? unique[0]! : `[${unique.join(', ')}]`;
}

/**
 * `value.NewPrefixTransformers`: writes with the first transformer (its prefix in front of its
 * output); reads with every transformer whose prefix the data starts with, in order, answering the
 * first success (stale unless it is the first transformer). An empty prefix (identity) that fails is skipped without counting as an error.
 * When nothing opens the data: the errors of the transformers tried, or `noMatch`.
 */
export class PrefixTransformers implements ValueTransformer {
  constructor(
    private readonly transformers: readonly PrefixedTransformer[],
    private readonly noMatch: string,
  ) {
    if (transformers.length === 0) throw new Error('at least one transformer is required');
  }

  fromStorage(data: Uint8Array, authenticatedData: Uint8Array): ReadResult {
    const errors: string[] = [];
    for (let i = 0; i < this.transformers.length; i++) {
      const { prefix, transformer } = this.transformers[i]!;
      if (!startsWith(data, prefix)) continue;
      try {
        const result = transformer.fromStorage(data.subarray(prefix.length), authenticatedData);
        return i === 0 ? result : { data: result.data, stale: true };
      } catch (e) {
        if (prefix.length === 0) continue;
        errors.push(e instanceof Error ? e.message : String(e));
      }
    }
    throw new TransformError(errors.length ? aggregateText(errors) : this.noMatch);
  }

  toStorage(data: Uint8Array, authenticatedData: Uint8Array): Uint8Array {
    const { prefix, transformer } = this.transformers[0]!;
    const out = transformer.toStorage(data, authenticatedData);
    const result = new Uint8Array(prefix.length + out.length);
    result.set(prefix, 0);
    result.set(out, prefix.length);
    return result;
  }
}
