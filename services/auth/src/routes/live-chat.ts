import { AppError, requireAuth, type ServiceApp } from '@flatship/kit';
import { ChatwootIdentitySchema, type ChatwootWidgetConfig, ClientConfigReplySchema } from '@flatship/proto';
import { chatIdentity } from '../domain/chat-identity';
import { MESSAGES } from '../domain/messages';
import type { DomainDeps } from './deps';

/** Live chat is on when the widget and the inbox's HMAC token are configured together (config.ts checks it). */
export interface LiveChatConfig {
  widget: ChatwootWidgetConfig | null;
  hmacToken: string | null;
}

export function registerLiveChatRoutes(app: ServiceApp, deps: DomainDeps, chat: LiveChatConfig): void {
  // Public: the landing page offers the chat before anyone signs in.
  app.get('/api/auth/client-config', { schema: { response: { 200: ClientConfigReplySchema } } }, async () => ({
    chatwoot: chat.widget,
  }));

  app.get(
    '/api/chatwoot/identity',
    { onRequest: [app.requireUser], schema: { response: { 200: ChatwootIdentitySchema } } },
    async (request) => {
      if (!chat.widget || !chat.hmacToken) {
        throw new AppError('LIVE_CHAT_NOT_CONFIGURED', MESSAGES.liveChatNotConfigured);
      }
      return chatIdentity(deps, chat.hmacToken, requireAuth(request).userId);
    },
  );
}
