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

/**
 * The database cannot be reached now (its server down, restarting, or out of reach): raised by
 * a store instead of the driver's error, and answered 503 with Retry-After like the service's
 * other 503s. The store logs the outage once; the driver's error is the cause.
 */
export class DatabaseUnavailable extends Error {
  /** Seconds a client should wait: a restart of the server takes a few. */
  readonly retryAfterSeconds = 5;

  constructor(options?: ErrorOptions) {
    super('the database is unavailable; try again shortly', options);
  }
}

/**
 * The client went away before its answer was made (a range waiting for its turn or for memory):
 * there is no one to answer, and nothing to report.
 */
export class ClientGone extends Error {
  constructor() {
    super('the client went away');
  }
}
