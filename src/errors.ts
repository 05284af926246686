/** Errors that end a request with a status and a message; mapped to HTTP in one place (app.ts). */
export class HttpProblem extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const notFound = (message: string): HttpProblem => new HttpProblem(404, message);
export const badRequest = (message: string): HttpProblem => new HttpProblem(400, message);
export const unavailable = (message: string, retryAfterSeconds?: number): HttpProblem =>
  new HttpProblem(
    503,
    message,
    retryAfterSeconds ? { 'retry-after': String(retryAfterSeconds) } : {},
  );
