/** Longest problem text: HTTP servers and proxies refuse much larger headers. */
export const MAX_PROBLEMS_LENGTH = 2048;

/**
 * The text of X-Error and of the json `error` (CONTRACT §8): every problem once, joined by
 * '; '. Only a text that would pass MAX_PROBLEMS_LENGTH is cut, after the last problem that
 * fits, with a count of the rest: one request with thousands of bad parameters must not make
 * a header that nobody can receive.
 */
export function problemsText(problems: readonly string[]): string {
  const distinct = [...new Set(problems)];
  let text = '';
  for (let index = 0; index < distinct.length; index++) {
    const next = text === '' ? distinct[index]! : `${text}; ${distinct[index]}`;
    const rest = distinct.length - index - 1;
    // Room is kept for the count of what follows, unless this is the last problem.
    const reserve = rest > 0 ? `; and ${rest} more`.length : 0;
    if (next.length + reserve > MAX_PROBLEMS_LENGTH) {
      const left = distinct.length - index;
      if (text === '') return `${distinct[index]!.slice(0, MAX_PROBLEMS_LENGTH - 3)}...`;
      return `${text}; and ${left} more`;
    }
    text = next;
  }
  return text;
}
