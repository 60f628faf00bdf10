import type { ConfiguredService, RawService } from '@flatship/proto';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { delay, HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../../test/fixtures';
import { api, verifyHandler } from '../../../test/handlers';
import { setupTestServer } from '../../../test/msw';
import { renderApp } from '../../../test/render-app';

const server = setupTestServer(verifyHandler(makeUser({ _id: 'a-1', user_role: 'admin' })));

const service = (overrides: Partial<ConfiguredService> = {}): ConfiguredService => ({
  _id: 'd-1',
  uid: 'usps_priority_mail',
  name: 'USPS Priority Mail',
  category: 'usps',
  maxWeight: 70,
  status: 'active',
  enabled: true,
  prices: [
    { fromWeight: 1, toWeight: 10, price: 8.5 },
    { fromWeight: 10, toWeight: 70, price: 14 },
  ],
  ...overrides,
});

const raw = (overrides: Partial<RawService> = {}): RawService => ({
  _id: 'r-1',
  uid: 'usps_priority_mail',
  name: 'Priority Mail',
  category: 'Priority',
  carrier: 'USPS',
  maxWeight: 70,
  status: 'active',
  ...overrides,
});

const ground = service({
  _id: 'd-2',
  uid: 'usps_ground_advantage',
  name: 'USPS Ground Advantage',
  maxWeight: 20,
  enabled: false,
  prices: [{ fromWeight: 1, toWeight: 20, price: 6 }],
});

function listHandlers(services: ConfiguredService[] = [service(), ground], rawServices: RawService[] = [raw()]) {
  return [
    http.get(api('defaultServices'), () => HttpResponse.json(services)),
    http.get(api('rawServices'), () => HttpResponse.json(rawServices)),
  ];
}

async function openPage(...handlers: Parameters<typeof server.use>) {
  server.use(...(handlers.length ? handlers : listHandlers()));
  const app = renderApp('/admin/default-services', { token: 'good-token' });
  await screen.findByRole('heading', { name: 'Default Service Configuration' });
  return app;
}

const card = (name: string) => within(screen.getByRole('article', { name }));
const toastDurations = (app: ReturnType<typeof renderApp>) => app.store.getState().toast.toasts.map((t) => t.duration);
const failure = (status = 500, message = 'Something broke') =>
  HttpResponse.json({ code: 'INTERNAL', message }, { status });

describe('Default Service Configuration', () => {
  it('shows the title, the subtitle, the sync button and a card per service with the carrier data', async () => {
    await openPage();
    expect(
      screen.getByText('Configure which services are enabled by default and customize their pricing'),
    ).toBeInTheDocument();
    expect(screen.getByTitle('Sync with Raw Services')).toBeInTheDocument();
    const priority = card('USPS Priority Mail');
    expect(await priority.findByText('USPS')).toBeInTheDocument();
    expect(priority.getByText('Priority')).toBeInTheDocument();
    expect(priority.getByText('70 lb')).toBeInTheDocument();
    expect(priority.getByRole('switch', { name: 'USPS Priority Mail enabled' })).toBeChecked();
    expect(priority.getByLabelText('Range 2 price')).toHaveValue(14);
    const groundCard = card('USPS Ground Advantage');
    expect(groundCard.getByRole('switch')).not.toBeChecked();
    // No raw record for this one: the service's own figures are shown.
    expect(groundCard.getByText('20 lb')).toBeInTheDocument();
  });

  it('shows a loading indicator while the services load', async () => {
    server.use(
      http.get(api('defaultServices'), async () => {
        await delay(200);
        return HttpResponse.json([service()]);
      }),
      http.get(api('rawServices'), () => HttpResponse.json([])),
    );
    renderApp('/admin/default-services', { token: 'good-token' });
    expect(await screen.findByText('Loading services…')).toBeInTheDocument();
    expect(await screen.findByRole('article', { name: 'USPS Priority Mail' })).toBeInTheDocument();
    expect(screen.queryByText('Loading services…')).not.toBeInTheDocument();
  });

  it('shows red error text when the services cannot be loaded', async () => {
    const app = await openPage(
      http.get(api('defaultServices'), () => failure()),
      http.get(api('rawServices'), () => HttpResponse.json([])),
    );
    const error = await screen.findByText('Failed to load services', { selector: '.default-services__error' });
    expect(error).toHaveClass('default-services__error');
    expect(screen.queryByRole('article')).not.toBeInTheDocument();
    expect(toastDurations(app)).toEqual([3000]);
  });

  it('still shows the services when only the raw services fail', async () => {
    await openPage(
      http.get(api('defaultServices'), () => HttpResponse.json([service()])),
      http.get(api('rawServices'), () => failure()),
    );
    expect(await screen.findByRole('article', { name: 'USPS Priority Mail' })).toBeInTheDocument();
  });

  it('says so when there are no services', async () => {
    await openPage(...listHandlers([], []));
    expect(await screen.findByText(/No services yet/)).toBeInTheDocument();
  });

  it('syncs with an empty JSON body and replaces the list with the one returned', async () => {
    const sent: { body: string; type: string | null; token: string | null }[] = [];
    const app = await openPage(...listHandlers());
    await screen.findByRole('article', { name: 'USPS Priority Mail' });
    server.use(
      http.post(api('defaultServices/sync'), async ({ request }) => {
        sent.push({
          body: await request.text(),
          type: request.headers.get('content-type'),
          token: request.headers.get('token'),
        });
        return HttpResponse.json([service({ _id: 'd-9', name: 'USPS Media Mail', uid: 'usps_media_mail' })]);
      }),
    );
    await app.user.click(screen.getByTitle('Sync with Raw Services'));
    expect(await screen.findByText('Services synchronized successfully')).toBeInTheDocument();
    expect(sent).toEqual([{ body: '', type: 'application/json', token: 'good-token' }]);
    expect(screen.getByRole('article', { name: 'USPS Media Mail' })).toBeInTheDocument();
    expect(screen.queryByRole('article', { name: 'USPS Priority Mail' })).not.toBeInTheDocument();
    expect(toastDurations(app)).toEqual([3000]);
  });

  it('keeps the list and says so when the sync fails', async () => {
    const app = await openPage();
    await screen.findByRole('article', { name: 'USPS Priority Mail' });
    server.use(http.post(api('defaultServices/sync'), () => failure(502, 'Carrier unavailable')));
    await app.user.click(screen.getByTitle('Sync with Raw Services'));
    expect(await screen.findByText('Failed to sync services')).toBeInTheDocument();
    expect(screen.getByText('Carrier unavailable')).toBeInTheDocument();
    expect(screen.getByRole('article', { name: 'USPS Priority Mail' })).toBeInTheDocument();
  });

  it("does not repeat the server's words under the toast when they are the page's own text", async () => {
    const app = await openPage();
    await screen.findByRole('article', { name: 'USPS Priority Mail' });
    server.use(http.post(api('defaultServices/sync'), () => failure(502, 'Failed to sync services')));
    await app.user.click(screen.getByTitle('Sync with Raw Services'));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to sync services');
    expect(screen.getByRole('alert').querySelector('.toast__detail')).toBeNull();
    expect(app.store.getState().toast.toasts).toEqual([
      expect.objectContaining({ message: 'Failed to sync services' }),
    ]);
    expect(app.store.getState().toast.toasts[0]).not.toHaveProperty('detail');
  });

  it('toggles a service and shows the server message', async () => {
    const bodies: unknown[] = [];
    const app = await openPage();
    server.use(
      http.patch(api('defaultServices/:id/toggle'), async ({ request, params }) => {
        bodies.push({ id: params.id, body: await request.json() });
        return HttpResponse.json({ message: 'Service disabled successfully', service: service({ enabled: false }) });
      }),
    );
    await app.user.click(await card('USPS Priority Mail').findByRole('switch'));
    expect(await screen.findByText('Service disabled successfully')).toBeInTheDocument();
    expect(bodies).toEqual([{ id: 'd-1', body: { enabled: false } }]);
    expect(card('USPS Priority Mail').getByRole('switch')).not.toBeChecked();
    expect(toastDurations(app)).toEqual([3000]);
  });

  it('says so when the toggle fails, and leaves the switch as it was', async () => {
    const app = await openPage();
    server.use(http.patch(api('defaultServices/:id/toggle'), () => failure()));
    await app.user.click(await card('USPS Priority Mail').findByRole('switch'));
    expect(await screen.findByText('Failed to update service status')).toBeInTheDocument();
    expect(card('USPS Priority Mail').getByRole('switch')).toBeChecked();
  });

  it('renames a service, refusing an empty name without asking the server', async () => {
    const bodies: unknown[] = [];
    const app = await openPage();
    server.use(
      http.put(api('defaultServices/:id/name'), async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({
          message: 'Service name updated successfully',
          service: service({ name: 'Priority Fast' }),
        });
      }),
    );
    const priority = card('USPS Priority Mail');
    const input = await priority.findByLabelText('Service name');
    await app.user.clear(input);
    await app.user.type(input, '   ');
    await app.user.click(priority.getByRole('button', { name: 'Save name' }));
    expect(await screen.findByText('Service name cannot be empty')).toBeInTheDocument();
    expect(bodies).toEqual([]);

    await app.user.clear(input);
    await app.user.type(input, ' Priority Fast ');
    await app.user.click(priority.getByRole('button', { name: 'Save name' }));
    expect(await screen.findByText('Service name updated successfully')).toBeInTheDocument();
    expect(bodies).toEqual([{ name: 'Priority Fast' }]);
    expect(screen.getByRole('article', { name: 'Priority Fast' })).toBeInTheDocument();
  });

  it('says so when renaming fails, with the server reason underneath', async () => {
    const app = await openPage();
    server.use(
      http.put(api('defaultServices/:id/name'), () =>
        failure(409, 'Another service is already named "USPS Ground Advantage"'),
      ),
    );
    const priority = card('USPS Priority Mail');
    const input = await priority.findByLabelText('Service name');
    await app.user.clear(input);
    await app.user.type(input, 'USPS Ground Advantage');
    await app.user.click(priority.getByRole('button', { name: 'Save name' }));
    expect(await screen.findByText('Failed to update service name')).toBeInTheDocument();
    expect(screen.getByText('Another service is already named "USPS Ground Advantage"')).toBeInTheDocument();
  });

  it('refuses a price list with a gap without asking the server', async () => {
    let calls = 0;
    const app = await openPage();
    server.use(
      http.put(api('defaultServices/:id/prices'), () => {
        calls += 1;
        return failure();
      }),
    );
    const priority = card('USPS Priority Mail');
    const from = await priority.findByLabelText('Range 2 from weight');
    await app.user.clear(from);
    await app.user.type(from, '12');
    await app.user.click(priority.getByRole('button', { name: 'Save prices' }));
    expect(
      await screen.findByText(
        'Invalid price ranges. Please ensure ranges are continuous from 1 to max weight without gaps or overlaps.',
      ),
    ).toBeInTheDocument();
    expect(calls).toBe(0);
    // Said next to the list, with the offending range marked, rather than in a toast that goes away.
    expect(priority.getByLabelText('Range 2 from weight')).toHaveAttribute('aria-invalid', 'true');
  });

  it('adds a range after the last one only while it ends below the max weight, and saves the list', async () => {
    const bodies: unknown[] = [];
    const app = await openPage();
    server.use(
      http.put(api('defaultServices/:id/prices'), async ({ request }) => {
        const body = (await request.json()) as { prices: ConfiguredService['prices'] };
        bodies.push(body);
        return HttpResponse.json({ message: 'Prices updated successfully', service: service({ prices: body.prices }) });
      }),
    );
    const priority = card('USPS Priority Mail');
    const add = await priority.findByRole('button', { name: 'Add range' });
    expect(add).toBeDisabled();
    const to = priority.getByLabelText('Range 2 to weight');
    await app.user.clear(to);
    await app.user.type(to, '40');
    expect(add).toBeEnabled();
    await app.user.click(add);
    expect(priority.getByLabelText('Range 3 from weight')).toHaveValue(40);
    expect(priority.getByLabelText('Range 3 to weight')).toHaveValue(70);
    expect(add).toBeDisabled();
    const price = priority.getByLabelText('Range 3 price');
    await app.user.clear(price);
    await app.user.type(price, '19.99');
    await app.user.click(priority.getByRole('button', { name: 'Save prices' }));
    expect(await screen.findByText('Prices updated successfully')).toBeInTheDocument();
    expect(bodies).toEqual([
      {
        prices: [
          { fromWeight: 1, toWeight: 10, price: 8.5 },
          { fromWeight: 10, toWeight: 40, price: 14 },
          { fromWeight: 40, toWeight: 70, price: 19.99 },
        ],
      },
    ]);
  });

  it('refuses a negative price, and says so when the server refuses the prices', async () => {
    const app = await openPage();
    server.use(http.put(api('defaultServices/:id/prices'), () => failure(400, 'Price must be at most $100,000.00')));
    const ground = card('USPS Ground Advantage');
    const price = await ground.findByLabelText('Range 1 price');
    await app.user.clear(price);
    await app.user.type(price, '-1');
    await app.user.click(ground.getByRole('button', { name: 'Save prices' }));
    expect(await screen.findByText('Price must be 0 or more with at most 2 decimals')).toBeInTheDocument();

    await app.user.clear(price);
    await app.user.type(price, '99999');
    await app.user.click(ground.getByRole('button', { name: 'Save prices' }));
    expect(await screen.findByText('Failed to update service prices')).toBeInTheDocument();
    expect(screen.getByText('Price must be at most $100,000.00')).toBeInTheDocument();
  });

  it('scrolls the row when dragged with the mouse, without pressing the button the drag started on', async () => {
    let calls = 0;
    await openPage();
    server.use(
      http.put(api('defaultServices/:id/prices'), () => {
        calls += 1;
        return HttpResponse.json({ message: 'Prices updated successfully', service: service() });
      }),
    );
    const row = screen.getByTestId('default-services-row');
    row.scrollLeft = 100;
    const button = card('USPS Priority Mail').getByRole('button', { name: 'Save prices' });
    const mouse = { pointerType: 'mouse', pointerId: 1, button: 0 };
    fireEvent.pointerDown(button, { ...mouse, clientX: 300 });
    fireEvent.pointerMove(button, { ...mouse, clientX: 260 });
    expect(row.scrollLeft).toBe(140);
    fireEvent.pointerMove(button, { ...mouse, clientX: 350 });
    expect(row.scrollLeft).toBe(50);
    fireEvent.pointerUp(button, { ...mouse, clientX: 350 });
    fireEvent.click(button);
    // A save would have begun with the click (the button says "Saving…" until it is answered): it did not.
    expect(button).toHaveTextContent('Save prices');
    expect(button).toBeEnabled();

    // A press that barely moves is a click.
    fireEvent.pointerDown(button, { ...mouse, clientX: 300 });
    fireEvent.pointerMove(button, { ...mouse, clientX: 302 });
    fireEvent.pointerUp(button, { ...mouse, clientX: 302 });
    expect(row.scrollLeft).toBe(50);
    fireEvent.click(button);
    await waitFor(() => expect(calls).toBe(1));
    await waitFor(() => expect(button).toHaveTextContent('Save prices'));
    // The one request the server got is this click's.
    expect(calls).toBe(1);
  });

  it('does not drag with touch (the browser scrolls natively)', async () => {
    await openPage();
    const row = await screen.findByTestId('default-services-row');
    row.scrollLeft = 100;
    const touch = { pointerType: 'touch', pointerId: 2, button: 0 };
    fireEvent.pointerDown(row, { ...touch, clientX: 300 });
    fireEvent.pointerMove(row, { ...touch, clientX: 200 });
    expect(row.scrollLeft).toBe(100);
  });
});
