/**
 * The only way values enter SQL text. Every value is validated before it gets here; these
 * helpers still escape, so that a validation slip cannot become an injection.
 */
export function stringLiteral(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

export function dateLiteral(date: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new Error(`not a date: ${date}`);
  return `DATE '${date}'`;
}

export function integerLiteral(value: number): string {
  if (!Number.isSafeInteger(value)) throw new Error(`not an integer: ${value}`);
  return String(value);
}

export function stringList(values: readonly string[]): string {
  return values.map(stringLiteral).join(', ');
}
