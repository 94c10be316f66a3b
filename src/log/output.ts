/**
 * Where log lines go: a stream written at once, or (the info stream of split streams with an
 * `infoBufferSize`) a buffer flushed when full, by the flush timer, and on `flush()`, as zap's
 * BufferedWriteSyncer and klog's flush daemon do.
 */

/** A stream lines are written to (`process.stderr`, a test's collector). */
export interface LogStream {
  write(text: string): unknown;
}

/** One destination of lines. */
export interface LogOutput {
  write(text: string): void;
  flush(): void;
}

/** Lines written to `stream` as they come. */
export function directOutput(stream: LogStream): LogOutput {
  return { write: (text) => void stream.write(text), flush: () => undefined };
}

/** Lines kept until `size` bytes would be exceeded (a longer line goes straight through), then written together. */
export function bufferedOutput(stream: LogStream, size: number): LogOutput {
  let pending: string[] = [];
  let bytes = 0;
  const flush = () => {
    if (pending.length === 0) return;
    const text = pending.join('');
    pending = [];
    bytes = 0;
    stream.write(text);
  };
  return {
    write(text) {
      const length = Buffer.byteLength(text);
      if (bytes + length > size) flush();
      if (length > size) {
        stream.write(text);
        return;
      }
      pending.push(text);
      bytes += length;
    },
    flush,
  };
}
