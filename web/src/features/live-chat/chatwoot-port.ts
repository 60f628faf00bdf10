import type { ChatwootIdentity, ChatwootWidgetConfig } from './live-chat-api';

/**
 * The Chatwoot website widget behind one small object, so the saga can be
 * tested without the real script. `{baseUrl}/packs/js/sdk.js` defines
 * `window.chatwootSDK`; `run` builds the widget, which then defines
 * `window.$chatwoot` and fires `chatwoot:ready` on window.
 */

interface ChatwootSdk {
  run(options: { websiteToken: string; baseUrl: string }): void;
}

interface ChatwootWidget {
  setUser(
    identifier: string,
    attributes: { email?: string; name?: string; avatar_url?: string; identifier_hash?: string },
  ): void;
  reset(): void;
}

declare global {
  interface Window {
    chatwootSDK?: ChatwootSdk;
    $chatwoot?: ChatwootWidget;
  }
}

export const sdkUrl = (baseUrl: string) => `${baseUrl.replace(/\/+$/, '')}/packs/js/sdk.js`;

let loading: Promise<void> | null = null;

/** Loads the widget once per page; resolves when it is ready for setUser. A failed load may be tried again. */
function load(widget: ChatwootWidgetConfig): Promise<void> {
  if (loading) return loading;
  const script = document.createElement('script');
  loading = new Promise<void>((resolve, reject) => {
    window.addEventListener('chatwoot:ready', () => resolve(), { once: true });
    script.src = sdkUrl(widget.baseUrl);
    script.async = true;
    script.defer = true;
    script.dataset.chatwootSdk = 'true';
    script.addEventListener('load', () => {
      if (!window.chatwootSDK || typeof window.chatwootSDK.run !== 'function') {
        reject(new Error(`${script.src} loaded but did not define window.chatwootSDK`));
        return;
      }
      window.chatwootSDK.run({ websiteToken: widget.websiteToken, baseUrl: widget.baseUrl });
    });
    script.addEventListener('error', () => reject(new Error(`Could not load ${script.src}`)));
    document.body.append(script);
  });
  loading.catch(() => {
    loading = null;
    script.remove();
  });
  return loading;
}

function setUser(identity: ChatwootIdentity): void {
  window.$chatwoot?.setUser(identity.identifier, {
    email: identity.email,
    name: identity.name,
    ...(identity.avatar ? { avatar_url: identity.avatar } : {}),
    identifier_hash: identity.hash,
  });
}

function reset(): void {
  window.$chatwoot?.reset();
}

export const chatwootPort = { load, setUser, reset };

/** Tests start every page without a widget. */
export function resetChatwootPortForTests(): void {
  loading = null;
  for (const script of document.querySelectorAll('script[data-chatwoot-sdk]')) script.remove();
  delete window.chatwootSDK;
  delete window.$chatwoot;
}
