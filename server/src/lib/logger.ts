import { AsyncLocalStorage } from 'node:async_hooks';
import winston from 'winston';

interface RequestScope {
  requestId: string;
}

/** Carries the request id through every await of a request, so that each log line names it. */
export const requestScope = new AsyncLocalStorage<RequestScope>();

const withRequestId = winston.format((info) => {
  const scope = requestScope.getStore();
  if (scope) info.request_id = scope.requestId;
  return info;
});

/** The one logger. JSON lines in production, readable lines elsewhere. */
export const logger = winston.createLogger({
  level: 'info',
  format: winston.format.combine(withRequestId(), winston.format.timestamp(), winston.format.json()),
  transports: [new winston.transports.Console()],
});

export function configureLogger(level: string, production: boolean): void {
  logger.silent = level === 'silent';
  if (level !== 'silent') logger.level = level;
  if (!production) {
    logger.format = winston.format.combine(
      withRequestId(),
      winston.format.timestamp(),
      winston.format.printf(({ level: lvl, message, timestamp, request_id, ...rest }) => {
        const extra = Object.keys(rest).length ? ` ${JSON.stringify(rest)}` : '';
        return `${timestamp} ${lvl}${request_id ? ` [${request_id}]` : ''} ${message}${extra}`;
      }),
    );
  }
}
