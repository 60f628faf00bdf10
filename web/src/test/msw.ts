import { HttpResponse, http, type RequestHandler } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';

/**
 * Every page load reads the public client configuration; unless a test says
 * otherwise, live chat is not configured and nothing else is asked.
 */
export const noLiveChatHandler = http.get('http://localhost/api/auth/client-config', () =>
  HttpResponse.json({ chatwoot: null }),
);

/** The signed-in user's print setting, read by the pages that download labels: 4x6 PDF unless a test says otherwise. */
export const defaultPrintSettingsHandler = http.get('http://localhost/api/orders/print-settings/:userId', () =>
  HttpResponse.json({ labelFormat: 'pdf-4x6' }),
);

/**
 * One msw server per test file. Any request without a handler fails the test,
 * so a screen that calls more (or other) endpoints than expected is caught.
 */
/** Orders and Batch Orders read the user's SCAN forms; unless a test says otherwise, there are none. */
export const noScanFormsHandler = http.get('http://localhost/api/orders/scan-forms/:userId', () =>
  HttpResponse.json({ today: '2026-11-24', unmanifestedToday: 0, unmanifestedByOrder: {}, forms: [] }),
);

export function setupTestServer(...handlers: RequestHandler[]) {
  // Last, so a test's own handlers win.
  const server = setupServer(...handlers, noLiveChatHandler, noScanFormsHandler, defaultPrintSettingsHandler);
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
  return server;
}
