import { createHash } from 'node:crypto';

/**
 * ETags name what a response was computed from: the data version, the day (for answers
 * relative to today), the path and its query. The body is streamed, so it cannot be hashed
 * before it is sent; and a matching If-None-Match is answered without running any query.
 */
export function weakEtag(...parts: readonly (string | number)[]): string {
  const digest = createHash('sha1').update(parts.join('\u0000')).digest('base64url').slice(0, 27);
  return `W/"${digest}"`;
}

/**
 * RFC 9110 weak comparison against an If-None-Match header value; `*` matches any answer unless
 * `wildcard` is false.
 */
export function etagMatches(
  ifNoneMatch: string | undefined,
  etag: string,
  wildcard = true,
): boolean {
  if (!ifNoneMatch) return false;
  const opaque = (tag: string): string => tag.trim().replace(/^W\//, '');
  return ifNoneMatch
    .split(',')
    .some((tag) => (tag.trim() === '*' ? wildcard : opaque(tag) === opaque(etag)));
}

export const CACHE_SETTLED = 'public, max-age=86400';
export const CACHE_CHANGING = 'public, max-age=60';
