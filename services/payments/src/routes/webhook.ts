import { AppError, describeSchemaError, type ServiceApp } from '@flatship/kit';
import { BODY_LIMITS, BTCPAY_SIGNATURE_HEADER, ErrorBodySchema, WebhookEventSchema } from '@flatship/proto';
import { Type } from 'typebox';
import { Compile } from 'typebox/compile';
import { handleBtcpayEvent } from '../domain/handle-btcpay-event';
import { MESSAGES } from '../domain/messages';
import { isValidWebhookSignature } from '../domain/verify-webhook-signature';
import type { DomainDeps } from './deps';
import { DEPOSITS_OFF_BODY } from './top-up';

const WebhookReplySchema = Type.Object({ ok: Type.Literal(true) });
const checkEvent = Compile(WebhookEventSchema);

/**
 * POST /api/payment/webhook/btcpay, called by BTCPay Server without a user
 * token. The signature covers the exact bytes sent, so this route (and only
 * this one, in its own encapsulated scope) receives the body as a raw Buffer
 * and parses it only after the signature has been checked.
 */
export async function registerWebhookRoutes(app: ServiceApp, deps: DomainDeps): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: BODY_LIMITS.btcpayWebhook },
      (_request, body, done) => {
        done(null, body);
      },
    );

    scope.post(
      '/api/payment/webhook/btcpay',
      { schema: { response: { 200: WebhookReplySchema, 503: ErrorBodySchema } } },
      async (request, reply) => {
        const btcpay = deps.btcpay;
        if (!btcpay) return reply.status(503).send(DEPOSITS_OFF_BODY);
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const header = request.headers[BTCPAY_SIGNATURE_HEADER];
        if (!isValidWebhookSignature(raw, typeof header === 'string' ? header : undefined, btcpay.webhookSecret)) {
          request.log.warn({ hasSignature: header !== undefined, bytes: raw.length }, 'webhook signature refused');
          throw new AppError('PAYMENTS_WEBHOOK_SIGNATURE', MESSAGES.webhookSignature);
        }
        let data: unknown;
        try {
          data = JSON.parse(raw.toString('utf8'));
        } catch {
          throw new AppError('BAD_JSON', MESSAGES.webhookNotJson);
        }
        if (!checkEvent.Check(data)) {
          const first = [...checkEvent.Errors(data)][0];
          const problem = first ? describeSchemaError(first as Parameters<typeof describeSchemaError>[0], 'body') : '';
          throw new AppError('VALIDATION_FAILED', MESSAGES.webhookBody(problem || 'not a webhook event'));
        }
        const outcome = await handleBtcpayEvent(
          {
            provider: btcpay.provider,
            deposits: deps.deposits,
            ledger: deps.ledger,
            transactor: deps.transactor,
            clock: deps.clock,
            logger: request.log,
            publishDepositSettled: deps.publishDepositSettled,
          },
          data,
        );
        request.log.info(
          { invoiceId: data.invoiceId, type: data.type, deliveryId: data.deliveryId, outcome },
          'webhook applied',
        );
        return { ok: true as const };
      },
    );
  });
}
