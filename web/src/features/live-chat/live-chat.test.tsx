import { screen, waitFor } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { api, emptyDashboardHandlers, verifyHandler } from '../../test/handlers';
import { setupTestServer } from '../../test/msw';
import { renderApp } from '../../test/render-app';
import { resetChatwootPortForTests } from './chatwoot-port';
import { liveChatApi } from './live-chat-api';

const BASE_URL = 'https://chat.example.test';
const IDENTITY = {
  identifier: 'u-1',
  email: 'jane@example.com',
  name: 'Jane Shipper',
  avatar: '',
  hash: 'a'.repeat(64),
};

declare global {
  interface Window {
    chatwootCalls?: unknown[][];
  }
}

/**
 * A stand-in for Chatwoot's sdk.js, served by msw like the real one: `run`
 * records its options, defines `$chatwoot` recording every call, and says
 * the widget is ready, as the real widget does.
 */
const FAKE_SDK = `
window.chatwootCalls = window.chatwootCalls || [];
window.chatwootSDK = {
  run: function (options) {
    window.chatwootCalls.push(['run', options]);
    window.$chatwoot = {
      setUser: function (identifier, attributes) { window.chatwootCalls.push(['setUser', identifier, attributes]); },
      reset: function () { window.chatwootCalls.push(['reset']); },
    };
    setTimeout(function () { window.dispatchEvent(new Event('chatwoot:ready')); }, 0);
  },
};
`;

let identityRequests = 0;
let sdkRequests = 0;
let configAnswers = 0;
const server = setupTestServer(verifyHandler(makeUser()), ...emptyDashboardHandlers());
server.events.on('response:mocked', ({ request }) => {
  if (new URL(request.url).pathname === '/api/auth/client-config') configAnswers += 1;
});

/**
 * A read sent now through the app's own client comes back after whatever the app received before it has been
 * dealt with, and after whatever the app sent before it has reached the server: what has not happened by then
 * was not going to.
 */
const throughTheSameClient = () => liveChatApi.widget();

/** The app has read the client configuration and done what it does with it. */
async function afterClientConfigRead() {
  await waitFor(() => expect(configAnswers).toBeGreaterThan(0));
  await throughTheSameClient();
}

/** jsdom does not run scripts: this runs what the page asked for, fetched from the network msw serves. */
const observer = new MutationObserver(async (records) => {
  for (const record of records) {
    for (const node of record.addedNodes) {
      if (!(node instanceof HTMLScriptElement) || !node.dataset.chatwootSdk) continue;
      const res = await fetch(node.src);
      if (!res.ok) {
        node.dispatchEvent(new Event('error'));
        continue;
      }
      new Function(await res.text())();
      node.dispatchEvent(new Event('load'));
    }
  }
});

function chatConfigured() {
  server.use(
    http.get(api('auth/client-config'), () =>
      HttpResponse.json({ chatwoot: { baseUrl: BASE_URL, websiteToken: 'web-token-1' } }),
    ),
    http.get(`${BASE_URL}/packs/js/sdk.js`, () => {
      sdkRequests += 1;
      return new HttpResponse(FAKE_SDK, { headers: { 'content-type': 'text/javascript' } });
    }),
    http.get(api('chatwoot/identity'), ({ request }) => {
      identityRequests += 1;
      return request.headers.get('token') === 'good-token'
        ? HttpResponse.json(IDENTITY)
        : HttpResponse.json({ code: 'AUTH_INVALID_TOKEN', message: 'Invalid token' }, { status: 401 });
    }),
  );
}

beforeEach(() => {
  identityRequests = 0;
  sdkRequests = 0;
  configAnswers = 0;
  window.chatwootCalls = [];
  observer.observe(document.body, { childList: true });
});
afterEach(() => {
  observer.disconnect();
  resetChatwootPortForTests();
});

describe('live chat', () => {
  it('loads the widget with the configured token and introduces the signed-in user with the signed identity', async () => {
    chatConfigured();
    renderApp('/main/dashboard', { token: 'good-token' });
    await waitFor(() =>
      expect(window.chatwootCalls).toContainEqual([
        'setUser',
        'u-1',
        { email: 'jane@example.com', name: 'Jane Shipper', identifier_hash: 'a'.repeat(64) },
      ]),
    );
    expect(window.chatwootCalls?.[0]).toEqual(['run', { websiteToken: 'web-token-1', baseUrl: BASE_URL }]);
    expect(sdkRequests).toBe(1);
    expect(identityRequests).toBe(1);
  });

  it('forgets the user on logout', async () => {
    chatConfigured();
    const app = renderApp('/main/dashboard', { token: 'good-token' });
    await waitFor(() => expect(window.chatwootCalls?.some((c) => c[0] === 'setUser')).toBe(true));
    await app.user.click(await screen.findByRole('button', { name: 'Account menu' }));
    await app.user.click(await screen.findByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(window.chatwootCalls?.at(-1)).toEqual(['reset']));
  });

  it('serves visitors on public pages without asking who they are', async () => {
    chatConfigured();
    renderApp('/login');
    await waitFor(() => expect(window.chatwootCalls?.[0]?.[0]).toBe('run'));
    expect(identityRequests).toBe(0);
    expect(window.chatwootCalls?.some((c) => c[0] === 'setUser')).toBe(false);
  });

  it('without configuration nothing loads, nobody is identified and the app works as usual', async () => {
    renderApp('/main/dashboard', { token: 'good-token' });
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    await afterClientConfigRead();
    expect(document.querySelector('script[data-chatwoot-sdk]')).toBeNull();
    expect(identityRequests).toBe(0);
    expect(window.chatwootCalls).toEqual([]);
  });

  it('a widget that cannot be loaded leaves the app working', async () => {
    // Configured, the identity there to be asked for, but the script is gone.
    chatConfigured();
    server.use(
      http.get(`${BASE_URL}/packs/js/sdk.js`, () => {
        sdkRequests += 1;
        return new HttpResponse('gone', { status: 404 });
      }),
    );
    renderApp('/main/dashboard', { token: 'good-token' });
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    // The failed script is taken away as the failure is dealt with: the chat has given up by then.
    await waitFor(() => expect(sdkRequests).toBe(1));
    await waitFor(() => expect(document.querySelector('script[data-chatwoot-sdk]')).toBeNull());
    await throughTheSameClient();
    expect(window.chatwootCalls).toEqual([]);
    expect(identityRequests).toBe(0);
  });
});
