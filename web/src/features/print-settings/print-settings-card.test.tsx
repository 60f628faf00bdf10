import { screen, waitFor, within } from '@testing-library/react';
import { delay, HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { api, verifyHandler } from '../../test/handlers';
import { setupTestServer } from '../../test/msw';
import { renderApp } from '../../test/render-app';

const server = setupTestServer(verifyHandler(makeUser()));
const SETTINGS = api('orders/print-settings/u-1');

/** The server keeps the setting as the real one does; every PUT body is recorded. */
function serveSetting(initial: string, opts: { failPut?: boolean; slowGet?: boolean } = {}) {
  let saved = initial;
  const puts: unknown[] = [];
  server.use(
    http.get(SETTINGS, async () => {
      if (opts.slowGet) await delay(150);
      return HttpResponse.json({ labelFormat: saved });
    }),
    http.put(SETTINGS, async ({ request }) => {
      const body = (await request.json()) as { labelFormat: string };
      puts.push(body);
      if (opts.failPut) {
        return HttpResponse.json(
          { code: 'VALIDATION_FAILED', message: 'labelFormat must be one of pdf-4x6, pdf-letter-2up or zpl-203' },
          { status: 400 },
        );
      }
      saved = body.labelFormat;
      return HttpResponse.json({ labelFormat: saved, message: 'Print setting saved' });
    }),
  );
  return puts;
}

const printing = () => screen.getByRole('region', { name: 'Printing' });

async function openAccount() {
  const app = renderApp('/main/account', { token: 'good-token' });
  await screen.findByRole('radio', { name: /4x6 ZPL \(203 dpi\)/ });
  return app;
}

describe('Print setting on the Account page', () => {
  it('shows the saved format among the three, each with what it is for', async () => {
    serveSetting('pdf-letter-2up');
    await openAccount();
    const radios = within(printing()).getAllByRole('radio');
    expect(radios.map((r) => r.getAttribute('value'))).toEqual(['pdf-4x6', 'pdf-letter-2up', 'zpl-203']);
    await waitFor(() => expect(screen.getByRole('radio', { name: /Letter PDF, 2 labels per page/ })).toBeChecked());
    expect(screen.getByRole('radio', { name: /4x6 PDF/ })).toHaveAccessibleDescription(
      'One label per page, for 4x6 label printers and most desktop printers.',
    );
    expect(screen.getByRole('button', { name: 'Save print setting' })).toBeDisabled();
  });

  it('shows that it is loading until the setting arrives', async () => {
    serveSetting('pdf-4x6', { slowGet: true });
    renderApp('/main/account', { token: 'good-token' });
    expect(await screen.findByText('Loading your print setting…')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('radio', { name: /^4x6 PDF/ })).toBeChecked());
    expect(screen.queryByText('Loading your print setting…')).not.toBeInTheDocument();
  });

  it('saves a new choice made with the keyboard and says so', async () => {
    const puts = serveSetting('pdf-4x6');
    const app = await openAccount();
    await waitFor(() => expect(screen.getByRole('radio', { name: /^4x6 PDF/ })).toBeChecked());
    screen.getByRole('radio', { name: /^4x6 PDF/ }).focus();
    // Arrow keys move through a radio group, as everywhere.
    await app.user.keyboard('{ArrowDown}{ArrowDown}');
    expect(screen.getByRole('radio', { name: /4x6 ZPL/ })).toBeChecked();
    await app.user.click(screen.getByRole('button', { name: 'Save print setting' }));

    expect(await within(printing()).findByRole('status')).toHaveTextContent('Print setting saved');
    expect(puts).toEqual([{ labelFormat: 'zpl-203' }]);
    expect(app.store.getState().printSettings.labelFormat).toBe('zpl-203');
    expect(screen.getByRole('button', { name: 'Save print setting' })).toBeDisabled();
  });

  it("shows the server's refusal and keeps the saved setting", async () => {
    const puts = serveSetting('pdf-4x6', { failPut: true });
    const app = await openAccount();
    await waitFor(() => expect(screen.getByRole('radio', { name: /^4x6 PDF/ })).toBeChecked());
    await app.user.click(screen.getByRole('radio', { name: /Letter PDF/ }));
    await app.user.click(screen.getByRole('button', { name: 'Save print setting' }));

    expect(await within(printing()).findByRole('alert')).toHaveTextContent(
      'labelFormat must be one of pdf-4x6, pdf-letter-2up or zpl-203',
    );
    expect(puts).toHaveLength(1);
    expect(app.store.getState().printSettings.labelFormat).toBe('pdf-4x6');
  });

  it('says so when the setting cannot be read', async () => {
    server.use(http.get(SETTINGS, () => HttpResponse.json({ code: 'INTERNAL', message: '' }, { status: 500 })));
    renderApp('/main/account', { token: 'good-token' });
    expect(await within(await screen.findByRole('region', { name: 'Printing' })).findByRole('alert')).toHaveTextContent(
      'Could not load your print setting. Please try again.',
    );
  });
});
