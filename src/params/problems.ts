/** Problems listed at most, then "and N more". */
const MAX_LISTED = 5;
/** Longest problem text: HTTP servers and proxies refuse much larger headers. */
export const MAX_PROBLEMS_LENGTH = 2048;

/**
 * The text of X-Error and of the json `error` (CONTRACT §8): problems joined by '; ', each
 * once, the first few of them and a count of the rest, never longer than a few KB. One request
 * with thousands of bad parameters must not make a header that nobody can receive.
 */
export function problemsText(problems: readonly string[]): string {
  const distinct = [...new Set(problems)];
  const listed = distinct.slice(0, MAX_LISTED);
  const rest = distinct.length - listed.length;
  let text = listed.join('; ');
  if (rest > 0) text += `; and ${rest} more`;
  return text.length > MAX_PROBLEMS_LENGTH ? `${text.slice(0, MAX_PROBLEMS_LENGTH - 3)}...` : text;
}
