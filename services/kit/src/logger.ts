import pino, { type Logger } from 'pino';

/** One JSON logger per process; every line carries the service name. */
export function createLogger(service: string, level: string): Logger {
  return pino({
    level,
    base: { service },
    redact: {
      paths: ['req.headers.token', 'req.headers.authorization', 'req.headers["x-internal-secret"]', '*.password'],
      censor: '[redacted]',
    },
    serializers: {
      req: (req: { method: string; url: string; id: string }) => ({
        method: req.method,
        url: req.url.replace(/token=[^&]+/, 'token=[redacted]'),
        id: req.id,
      }),
    },
  });
}
