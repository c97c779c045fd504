import winston from 'winston';
import { SECRET_KEY } from '../domain/secrets.js';

export type Logger = winston.Logger;

/** Drops any field whose name says it is a secret, however a caller passed it in. */
const redactSecrets = winston.format((info) => {
  for (const key of Object.keys(info)) {
    if (SECRET_KEY.test(key)) delete (info as Record<string, unknown>)[key];
  }
  return info;
});

/** JSON lines on stdout, one per event, tagged with the process and book. */
export function createLogger(options: { level: string; service: string; book: string; silent?: boolean }): Logger {
  return winston.createLogger({
    level: options.level,
    silent: options.silent ?? false,
    defaultMeta: { service: options.service, book: options.book },
    format: winston.format.combine(redactSecrets(), winston.format.timestamp(), winston.format.json()),
    transports: [new winston.transports.Console()],
  });
}
