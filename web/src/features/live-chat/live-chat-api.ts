import type { ChatwootIdentity, ChatwootWidgetConfig, ClientConfigReply } from '@flatship/proto';
import { getJson } from '../../app/http';

export type { ChatwootIdentity, ChatwootWidgetConfig };

/** A reply read defensively: anything but a complete widget setting means no live chat. */
function widgetOf(reply: unknown): ChatwootWidgetConfig | null {
  const chat = reply && typeof reply === 'object' ? (reply as Partial<ClientConfigReply>).chatwoot : null;
  if (!chat || typeof chat !== 'object') return null;
  const { baseUrl, websiteToken } = chat;
  return typeof baseUrl === 'string' && baseUrl && typeof websiteToken === 'string' && websiteToken
    ? { baseUrl: baseUrl.replace(/\/+$/, ''), websiteToken }
    : null;
}

export const liveChatApi = {
  /** GET /api/auth/client-config (public): where the chat widget comes from, or null without live chat. */
  widget: async (): Promise<ChatwootWidgetConfig | null> => widgetOf(await getJson<unknown>('auth/client-config')),
  /** GET /api/chatwoot/identity: the signed-in user as the chat knows them, signed by the server. */
  identity: () => getJson<ChatwootIdentity>('chatwoot/identity'),
};
