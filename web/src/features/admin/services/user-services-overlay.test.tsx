import type { ConfiguredService, InitializeUserServicesReply, ServiceChangeReply } from '@flatship/proto';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { api, verifyHandler } from '../../../test/handlers';
import { setupTestServer } from '../../../test/msw';
import { renderApp } from '../../../test/render-app';
import { makeAdmin, makeRow, recorder, usersHandler, usersReply } from '../admin-test-support';
import { INVALID_RANGES_MESSAGE } from './price-ranges';

const server = setupTestServer(verifyHandler(makeAdmin()));

const jane = makeRow({ _id: 'u-1', name: 'Jane Shipper', email: 'jane@example.com' });

const priority = (overrides: Partial<ConfiguredService> = {}): ConfiguredService => ({
  _id: 'svc-1',
  uid: 'usps-priority',
  name: 'USPS Priority Mail',
  category: 'USPS',
  maxWeight: 70,
  status: 'active',
  enabled: true,
  prices: [
    { fromWeight: 1, toWeight: 10, price: 5 },
    { fromWeight: 10, toWeight: 70, price: 9.5 },
  ],
  ...overrides,
});
const ground = priority({ _id: 'svc-2', uid: 'ups-ground', name: 'UPS Ground', category: 'UPS', enabled: false });

/** Opens user management and the services overlay of Jane, whose services are `services`. */
async function openOverlay(services: ConfiguredService[], extra: Parameters<typeof server.use> = []) {
  const rec = recorder();
  server.use(
    usersHandler(rec, usersReply([jane])),
    http.get(api('userServices/:userId'), async ({ request }) => {
      await rec.record(request);
      return HttpResponse.json(services);
    }),
    ...extra,
  );
  const app = renderApp('/admin/user-management', { token: 'good-token' });
  await app.user.click(await screen.findByRole('button', { name: 'Services of Jane Shipper' }));
  const overlay = await screen.findByRole('dialog', { name: 'Services for Jane Shipper' });
  return { ...app, rec, overlay: within(overlay) };
}

const card = (name: string) => within(screen.getByRole('region', { name }));
const serviceRequests = (rec: ReturnType<typeof recorder>) =>
  rec.seen.filter((r) => r.url.pathname.startsWith('/api/userServices')).map((r) => `${r.method} ${r.url.pathname}`);

function changeHandler(
  rec: ReturnType<typeof recorder>,
  method: 'patch' | 'put',
  path: string,
  reply: object,
  status = 200,
) {
  return http[method](api(path), async ({ request }) => {
    await rec.record(request);
    return HttpResponse.json(reply, { status });
  });
}

describe('Per-user services overlay', () => {
  it('lists the user services full screen, and Close and Escape leave it', async () => {
    const app = await openOverlay([priority(), ground]);
    expect(await screen.findByRole('region', { name: 'USPS Priority Mail' })).toBeInTheDocument();
    expect(card('USPS Priority Mail').getByRole('switch', { name: 'USPS Priority Mail enabled' })).toBeChecked();
    expect(card('UPS Ground').getByRole('switch', { name: 'UPS Ground enabled' })).not.toBeChecked();
    expect(card('USPS Priority Mail').getByRole('spinbutton', { name: 'Range 2 price' })).toHaveValue(9.5);
    expect(serviceRequests(app.rec)).toEqual(['GET /api/userServices/u-1']);

    await app.user.click(app.overlay.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await app.user.click(screen.getByRole('button', { name: 'Services of Jane Shipper' }));
    await screen.findByRole('dialog', { name: 'Services for Jane Shipper' });
    await app.user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('keeps keyboard focus inside the overlay and returns it to the Services button on close', async () => {
    const app = await openOverlay([priority()]);
    await screen.findByRole('region', { name: 'USPS Priority Mail' });
    const close = app.overlay.getByRole('button', { name: 'Close' });
    expect(close).toHaveFocus();
    await app.user.tab({ shift: true });
    expect(app.overlay.getByRole('button', { name: 'Save prices' })).toHaveFocus();
    await app.user.tab();
    expect(close).toHaveFocus();
    await app.user.keyboard('{Escape}');
    expect(screen.getByRole('button', { name: 'Services of Jane Shipper' })).toHaveFocus();
  });

  it('shows prices to 2 decimals', async () => {
    await openOverlay([priority()]);
    const price = await screen.findByRole('spinbutton', { name: 'Range 2 price' });
    expect((price as HTMLInputElement).value).toBe('9.50');
    expect(price).toHaveAttribute('min', '0');
    expect(price).toHaveAttribute('step', '0.01');
  });

  it('initialises the services of a user who has none, then shows them', async () => {
    const rec = recorder();
    const app = await openOverlay(
      [],
      [
        http.post(api('userServices/:userId/initialize'), async ({ request }) => {
          await rec.record(request);
          return HttpResponse.json({
            message: 'Services initialized successfully',
            services: [priority()],
          } satisfies InitializeUserServicesReply);
        }),
      ],
    );
    expect(await screen.findByRole('region', { name: 'USPS Priority Mail' })).toBeInTheDocument();
    expect(serviceRequests(app.rec)).toEqual(['GET /api/userServices/u-1']);
    expect(serviceRequests(rec)).toEqual(['POST /api/userServices/u-1/initialize']);
  });

  it('says "Failed to load services" when the list cannot be read', async () => {
    const rec = recorder();
    server.use(
      usersHandler(rec, usersReply([jane])),
      http.get(api('userServices/:userId'), () =>
        HttpResponse.json({ code: 'INTERNAL', message: 'Down' }, { status: 500 }),
      ),
    );
    const app = renderApp('/admin/user-management', { token: 'good-token' });
    await app.user.click(await screen.findByRole('button', { name: 'Services of Jane Shipper' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load services');
  });

  it('turns a service off and on with the server message shown for 3 s', async () => {
    const app = await openOverlay([priority()]);
    server.use(
      changeHandler(app.rec, 'patch', 'userServices/:userId/:serviceId/toggle', {
        message: 'Service disabled successfully',
        service: priority({ enabled: false }),
      } satisfies ServiceChangeReply),
    );
    const toggle = await screen.findByRole('switch', { name: 'USPS Priority Mail enabled' });
    await app.user.click(toggle);
    expect(await screen.findByRole('status')).toHaveTextContent('Service disabled successfully');
    await waitFor(() => expect(toggle).not.toBeChecked());
    const patch = app.rec.seen.find((r) => r.method === 'PATCH');
    expect(patch?.url.pathname).toBe('/api/userServices/u-1/svc-1/toggle');
    expect(patch?.body).toEqual({ enabled: false });
    expect(app.store.getState().toast.toasts.map((t) => t.duration)).toEqual([3000]);
  });

  it('says "Failed to update service status" when the toggle fails, and keeps the switch as it was', async () => {
    const app = await openOverlay([priority()]);
    server.use(
      changeHandler(
        app.rec,
        'patch',
        'userServices/:userId/:serviceId/toggle',
        { code: 'PRICING_SERVICE_NOT_FOUND', message: 'Service not found' },
        404,
      ),
    );
    const toggle = await screen.findByRole('switch', { name: 'USPS Priority Mail enabled' });
    await app.user.click(toggle);
    const toast = await screen.findByRole('alert');
    expect(toast).toHaveTextContent('Failed to update service status');
    expect(toast).toHaveTextContent('Service not found');
    await waitFor(() => expect(toggle).toBeEnabled());
    expect(toggle).toBeChecked();
  });

  it('refuses a price list with a gap in the browser, with the spec message, and sends nothing', async () => {
    const app = await openOverlay([priority()]);
    const c = card('USPS Priority Mail');
    const from = await screen.findByRole('spinbutton', { name: 'Range 2 from weight' });
    await app.user.clear(from);
    await app.user.type(from, '12');
    await app.user.click(c.getByRole('button', { name: 'Save prices' }));
    expect(c.getByRole('alert')).toHaveTextContent(INVALID_RANGES_MESSAGE);
    expect(from).toHaveAttribute('aria-invalid', 'true');
    expect(app.rec.seen.some((r) => r.method === 'PUT')).toBe(false);
  });

  it('refuses a price with more than 2 decimals', async () => {
    const app = await openOverlay([priority()]);
    const c = card('USPS Priority Mail');
    const price = await screen.findByRole('spinbutton', { name: 'Range 1 price' });
    await app.user.clear(price);
    await app.user.type(price, '1.234');
    await app.user.click(c.getByRole('button', { name: 'Save prices' }));
    expect(c.getByRole('alert')).toHaveTextContent('Price must be 0 or more with at most 2 decimals');
    expect(app.rec.seen.some((r) => r.method === 'PUT')).toBe(false);
  });

  it('adds a range after the highest one only while that is below the max weight, and saves the list', async () => {
    const app = await openOverlay([priority()]);
    server.use(
      changeHandler(app.rec, 'put', 'userServices/:userId/:serviceId/prices', {
        message: 'Prices updated successfully',
        service: priority({
          prices: [
            { fromWeight: 1, toWeight: 10, price: 5 },
            { fromWeight: 10, toWeight: 40, price: 9.5 },
            { fromWeight: 40, toWeight: 70, price: 12.25 },
          ],
        }),
      } satisfies ServiceChangeReply),
    );
    const c = card('USPS Priority Mail');
    const add = await screen.findByRole('button', { name: 'Add range' });
    // The list already reaches 70 lb: refused.
    expect(add).toBeDisabled();
    expect(c.getByText('Ranges reach the maximum weight of 70 lb.')).toBeInTheDocument();

    const to = c.getByRole('spinbutton', { name: 'Range 2 to weight' });
    await app.user.clear(to);
    await app.user.type(to, '40');
    expect(add).toBeEnabled();
    await app.user.click(add);
    expect(c.getByRole('spinbutton', { name: 'Range 3 from weight' })).toHaveValue(40);
    expect(c.getByRole('spinbutton', { name: 'Range 3 to weight' })).toHaveValue(70);
    expect(add).toBeDisabled();
    const price = c.getByRole('spinbutton', { name: 'Range 3 price' });
    await app.user.clear(price);
    await app.user.type(price, '12.25');

    await app.user.click(c.getByRole('button', { name: 'Save prices' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Prices updated successfully');
    const put = app.rec.seen.find((r) => r.method === 'PUT');
    expect(put?.url.pathname).toBe('/api/userServices/u-1/svc-1/prices');
    expect(put?.body).toEqual({
      prices: [
        { fromWeight: 1, toWeight: 10, price: 5 },
        { fromWeight: 10, toWeight: 40, price: 9.5 },
        { fromWeight: 40, toWeight: 70, price: 12.25 },
      ],
    });
  });

  it('removes a range, and says "Failed to update service prices" with the server reason when the save is refused', async () => {
    const app = await openOverlay([
      priority({
        prices: [
          { fromWeight: 1, toWeight: 10, price: 5 },
          { fromWeight: 10, toWeight: 70, price: 9.5 },
        ],
      }),
    ]);
    server.use(
      changeHandler(
        app.rec,
        'put',
        'userServices/:userId/:serviceId/prices',
        { code: 'PRICING_INVALID_PRICES', message: 'Price must be at most $100,000.00' },
        400,
      ),
    );
    const c = card('USPS Priority Mail');
    await app.user.click(await screen.findByRole('button', { name: 'Remove range 2' }));
    const to = c.getByRole('spinbutton', { name: 'Range 1 to weight' });
    await app.user.clear(to);
    await app.user.type(to, '70');
    await app.user.click(c.getByRole('button', { name: 'Save prices' }));
    const toast = await screen.findByRole('alert');
    expect(toast).toHaveTextContent('Failed to update service prices');
    expect(toast).toHaveTextContent('Price must be at most $100,000.00');
    expect(app.rec.seen.find((r) => r.method === 'PUT')?.body).toEqual({
      prices: [{ fromWeight: 1, toWeight: 70, price: 5 }],
    });
  });
});
