/**
 * The non-empty segments of a URL path (`/api//v1/pods/` → `api`, `v1`, `pods`), as Kubernetes'
 * request info and routing split a path. Every request's path is split like this, so the common
 * case (empty segments only at the ends) makes one array less than filtering.
 */
export function pathSegments(pathname: string): string[] {
  const segments = pathname.split('/');
  for (let i = 1; i < segments.length - 1; i++) if (segments[i] === '') return segments.filter((p) => p !== '');
  return segments.slice(segments[0] === '' ? 1 : 0, segments.length > 1 && segments[segments.length - 1] === '' ? -1 : undefined);
}

/** Each segment percent-decoded in place (`decodeURIComponent`, which throws on a bad escape); a segment without `%` is left as it is. */
export function decodeSegments(segments: string[]): string[] {
  for (let i = 0; i < segments.length; i++) if (segments[i]!.includes('%')) segments[i] = decodeURIComponent(segments[i]!);
  return segments;
}
