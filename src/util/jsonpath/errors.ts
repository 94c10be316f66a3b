/**
 * A template that does not parse, or an evaluation that fails. The message is client-go's word
 * for word (`unclosed action`, `unrecognized character in action: U+0021 '!'`, `spec is not
 * found`), since Kubernetes shows it to users; the only messages of our own are the work limits
 * of an evaluation (see `JsonPathOptions`), where client-go would run until it runs out of memory.
 */
export class JsonPathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JsonPathError';
  }
}
