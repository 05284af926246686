import pretty from 'pino-pretty';
import type { LogFormat, LogLevel } from './config.js';

/** Fastify's two lines per request, which belong at debug, not beside what the service says. */
const REQUEST_MESSAGES = new Set(['incoming request', 'request completed']);
const INFO = 30;

/** Errors already logged with what they cut short (see `noteLogged`). */
const logged = new WeakSet<Error>();

/**
 * Marks an error as logged in full: logged again on its own, as the compression plugin logs the
 * failure of a stream it compresses, it is dropped rather than said twice.
 */
export function noteLogged(error: Error): void {
  logged.add(error);
}

interface LevelLogger {
  isLevelEnabled(level: string): boolean;
  debug(...args: unknown[]): void;
}

/**
 * Pino settings for `fxrates serve`: readable lines (time, level, message) for a person at a
 * terminal, or one JSON object a line for a log collector. Request lines are logged at debug.
 */
export function serveLoggerOptions(
  level: LogLevel,
  format: LogFormat,
  destination: NodeJS.WritableStream | number = 1,
): object {
  const hooks = {
    logMethod(
      this: LevelLogger,
      args: unknown[],
      method: (...args: unknown[]) => void,
      methodLevel: number,
    ): void {
      if (methodLevel === INFO && typeof args[1] === 'string' && REQUEST_MESSAGES.has(args[1])) {
        if (this.isLevelEnabled('debug')) this.debug(...args);
        return;
      }
      if (args.length === 1 && args[0] instanceof Error && logged.has(args[0])) return;
      method.apply(this, args);
    },
  };
  if (format === 'json') return { level, hooks };
  return {
    level,
    hooks,
    stream: pretty({
      destination,
      sync: true,
      colorize: typeof destination === 'number' ? undefined : false,
      translateTime: 'SYS:HH:MM:ss',
      ignore: 'pid,hostname,reqId,req,res,responseTime',
      singleLine: true,
      messageFormat: (log, messageKey) => {
        const message = String(log[messageKey] ?? '');
        const req = log.req as { method?: string; url?: string } | undefined;
        const res = log.res as { statusCode?: number } | undefined;
        if (req) return `${message}: ${req.method} ${req.url}`;
        if (res)
          return `${message}: ${res.statusCode} in ${Math.round(Number(log.responseTime))} ms`;
        return message;
      },
    }),
  };
}
