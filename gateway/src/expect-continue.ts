import type { IncomingMessage } from 'node:http';
import type { ServiceApp } from '@flatship/kit';

/**
 * `Expect: 100-continue` (curl sends it with any body over 1 MiB) is answered
 * here, never forwarded: undici, which forwards requests to the services,
 * refuses the header outright.
 *
 * Node would send 100 Continue the moment the headers arrive. Instead the
 * gateway sends it once the request has passed every check that needs no
 * body (path, size, token, rate limit), so a request refused by one of them
 * is answered before the client uploads anything. That answer closes the
 * connection: the client may still send the body it announced, and it
 * could not be told apart from a next request.
 */
export function answerExpectContinue(app: ServiceApp): void {
  const waiting = new WeakSet<IncomingMessage>();
  app.server.on('checkContinue', (req, res) => {
    // Only API calls are checked first; anything else (pages, socket.io) is answered as Node would.
    if (req.url?.startsWith('/api/')) waiting.add(req);
    else res.writeContinue();
    // Handled as any other request from here (socket.io and Fastify both listen for 'request').
    app.server.emit('request', req, res);
  });
  app.addHook('preParsing', async (request, reply, payload) => {
    if (waiting.delete(request.raw)) reply.raw.writeContinue();
    return payload;
  });
  app.addHook('onSend', async (request, reply) => {
    if (waiting.has(request.raw)) reply.header('connection', 'close');
  });
}
