/**
 * The CRI log format, as containerd's CRI logger writes a container's output (pkg/cri/io/logger.go):
 * one line per output line, `<RFC3339Nano timestamp> <stream> <tag> <content>`, where the tag is
 * `F` for a full line and `P` for a partial one (output not ending in a newline, or a line cut at
 * the maximum line length). The kubelet's log reader (`kubectl logs`) joins partial lines back.
 */

/** containerd's default `max_container_log_line_size`. */
export const DEFAULT_MAX_LOG_LINE_BYTES = 16 * 1024;

/**
 * The stream a log line came from.
 * @category CRI runtime
 */
export type LogStream = 'stdout' | 'stderr';

/**
 * Go's `time.RFC3339Nano` in UTC: fractional seconds with trailing zeros trimmed (and no fraction
 * at all when it is zero), `Z` for the zone: `2016-10-06T00:17:09.669794202Z`.
 */
export function formatRfc3339Nano(epochNanos: bigint): string {
  const seconds = epochNanos / 1_000_000_000n;
  const nanos = epochNanos % 1_000_000_000n;
  const base = new Date(Number(seconds) * 1000).toISOString().slice(0, 19);
  if (nanos === 0n) return `${base}Z`;
  const fraction = nanos.toString().padStart(9, '0').replace(/0+$/, '');
  return `${base}.${fraction}Z`;
}

/**
 * The CRI log lines for one chunk of output: each newline-terminated line is a full line (a
 * `\r\n` ending is dropped as containerd drops it), a remainder without a newline is partial, and
 * any line longer than `maxLineBytes` is cut into partial lines followed by the full rest.
 */
export function criLogLines(epochNanos: bigint, stream: LogStream, text: string, maxLineBytes = DEFAULT_MAX_LOG_LINE_BYTES): string {
  const timestamp = formatRfc3339Nano(epochNanos);
  const out: string[] = [];
  const emit = (tag: 'F' | 'P', content: Buffer): void => {
    out.push(`${timestamp} ${stream} ${tag} ${content.toString('utf8')}\n`);
  };
  const pieces = text.split('\n');
  const endsWithNewline = pieces[pieces.length - 1] === '';
  if (endsWithNewline) pieces.pop();
  pieces.forEach((piece, i) => {
    const complete = i < pieces.length - 1 || endsWithNewline;
    let bytes = Buffer.from(complete && piece.endsWith('\r') ? piece.slice(0, -1) : piece, 'utf8');
    while (maxLineBytes > 0 && bytes.length > maxLineBytes) {
      emit('P', bytes.subarray(0, maxLineBytes));
      bytes = bytes.subarray(maxLineBytes);
    }
    if (bytes.length > 0 || complete) emit(complete ? 'F' : 'P', bytes);
  });
  return out.join('');
}
