import { screen, waitFor, within } from '@testing-library/react';
import { delay, HttpResponse, http } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { api } from '../../test/handlers';
import { setupTestServer } from '../../test/msw';
import { renderApp } from '../../test/render-app';
import { type BtcpayModal, resetBtcpayPortForTests } from './btcpay-port';

type Row = {
  _id: string;
  amount: number;
  createdTime: number;
  status: string;
  kind?: 'deposit' | 'referral_bonus';
  description?: string;
};

/** Deposit `i` was made on day `i` of November 2026 at 14:05 local time. */
const deposit = (i: number, overrides: Partial<Row> = {}): Row => ({
  _id: `d-${i}`,
  amount: 10 + i,
  createdTime: Math.floor(new Date(2026, 10, i, 14, 5).getTime() / 1000),
  status: 'Settled',
  ...overrides,
});

interface ListRequest {
  userId: string;
  page: string | null;
  limit: string | null;
  filter: string | null;
}

let listRequests: ListRequest[] = [];
let verifyCount = 0;
/** The signed-in user as the server sees it now; a test may change it (a credited deposit). */
let sessionUser = makeUser();

/** 9 deposits, newest first, answered a page at a time as the server would. */
const NINE = [9, 8, 7, 6, 5, 4, 3, 2, 1].map((i) => deposit(i));

function listHandler(all: Row[] = NINE) {
  return http.get(api('payment/deposits/:userId'), ({ params, request }) => {
    const url = new URL(request.url);
    const page = Number(url.searchParams.get('page') ?? 1);
    const limit = Number(url.searchParams.get('limit') ?? 7);
    listRequests.push({
      userId: String(params.userId),
      page: url.searchParams.get('page'),
      limit: url.searchParams.get('limit'),
      filter: url.searchParams.get('filter'),
    });
    return HttpResponse.json({ deposits: all.slice((page - 1) * limit, page * limit), totalCount: all.length });
  });
}

const server = setupTestServer(
  http.get(api('auth/verify'), ({ request }) => {
    verifyCount += 1;
    return request.headers.get('token') === 'good-token'
      ? HttpResponse.json({ user: sessionUser })
      : HttpResponse.json({ code: 'AUTH_INVALID_TOKEN', message: 'Invalid token' }, { status: 401 });
  }),
);

/** The provider's script as the tests see it: every modal script added to the page loads (or fails) at once. */
function fakeProvider({ fails = false } = {}) {
  const callbacks: { leave?: () => void; message?: (event: { data?: unknown }) => void } = {};
  const modal: BtcpayModal = {
    showInvoice: vi.fn(),
    onModalWillLeave: (cb) => {
      callbacks.leave = cb;
    },
    onModalReceiveMessage: (cb) => {
      callbacks.message = cb;
    },
  };
  const observer = new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (!(node instanceof HTMLScriptElement) || !node.dataset.btcpayModal) continue;
        if (fails) {
          node.dispatchEvent(new Event('error'));
        } else {
          window.btcpay = modal;
          node.dispatchEvent(new Event('load'));
        }
      }
    }
  });
  observer.observe(document.head, { childList: true });
  stopObservers.push(() => observer.disconnect());
  return {
    modal,
    leave: () => callbacks.leave?.(),
    message: (data: unknown) => callbacks.message?.({ data }),
  };
}

const stopObservers: (() => void)[] = [];
const modalScripts = () => [...document.head.querySelectorAll<HTMLScriptElement>('script[data-btcpay-modal]')];
const table = () => within(screen.getByRole('table', { name: 'Deposit History' }));
const bodyRows = () => table().getAllByRole('row').slice(1);
const cellTexts = (column: number) => bodyRows().map((r) => within(r).getAllByRole('cell')[column]?.textContent);
const payButton = () => screen.getByRole('button', { name: 'Pay with BTCPay' });

const INVOICE = { id: 'inv-42', checkoutLink: 'https://pay.example.test/i/inv-42' };

function topUpHandler(reply: () => Response | Promise<Response>) {
  const requested: string[] = [];
  server.use(
    http.get(api('payment/top-up/:userId'), async ({ params }) => {
      requested.push(String(params.userId));
      return reply();
    }),
  );
  return requested;
}

beforeEach(() => {
  listRequests = [];
  verifyCount = 0;
  sessionUser = makeUser();
});

afterEach(() => {
  for (const stop of stopObservers.splice(0)) stop();
  resetBtcpayPortForTests();
  vi.restoreAllMocks();
});

describe('Deposit page: history', () => {
  it('asks the server for 7 deposits a page and shows the next page from the server', async () => {
    server.use(listHandler());
    const app = renderApp('/main/deposit', { token: 'good-token' });
    expect(await screen.findByRole('heading', { name: 'Deposit History' })).toBeInTheDocument();
    await waitFor(() => expect(bodyRows()).toHaveLength(7));
    expect(listRequests).toEqual([{ userId: 'u-1', page: '1', limit: '7', filter: 'all' }]);
    expect(
      table()
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Amount', 'Date', 'Status']);
    expect(cellTexts(0)).toEqual(['$19', '$18', '$17', '$16', '$15', '$14', '$13']);
    expect(cellTexts(1)[0]).toBe('09-11-2026 14:05');

    await app.user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(cellTexts(0)).toEqual(['$12', '$11']));
    expect(listRequests.at(-1)).toEqual({ userId: 'u-1', page: '2', limit: '7', filter: 'all' });
    expect(screen.getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
  });

  it('shows each status as coloured text and no amount for an unpaid top-up', async () => {
    server.use(
      listHandler([
        deposit(5, { status: 'New', amount: 0 }),
        deposit(4, { status: 'Expired', amount: 0 }),
        deposit(3, { status: 'Processing', amount: 25.5 }),
        deposit(2, { status: 'Settled', amount: 1250.75 }),
        deposit(1, { status: 'Settled', amount: 0 }),
      ]),
    );
    renderApp('/main/deposit', { token: 'good-token' });
    await waitFor(() => expect(bodyRows()).toHaveLength(5));
    const [fresh, expired, processing, settled, settledZero] = bodyRows();
    if (!fresh || !expired || !processing || !settled || !settledZero) throw new Error('five rows expected');

    expect(within(fresh).getByText('New')).toHaveClass('deposit-status--pending');
    expect(within(expired).getByText('Expired')).toHaveClass('deposit-status--expired');
    expect(within(processing).getByText('Processing')).toHaveClass('deposit-status--pending');
    expect(within(settled).getByText('Settled')).toHaveClass('deposit-status--settled');

    expect(within(fresh).getAllByRole('cell')[0]).toHaveTextContent('—Not paid yet');
    expect(within(expired).getAllByRole('cell')[0]).toHaveTextContent('—Not paid yet');
    expect(within(processing).getAllByRole('cell')[0]).toHaveTextContent('$25.5');
    expect(within(settled).getAllByRole('cell')[0]).toHaveTextContent('$1,250.75');
    // A settled deposit always shows its amount, even a zero one.
    expect(within(settledZero).getAllByRole('cell')[0]).toHaveTextContent('$0');
  });

  it('labels a referral bonus as its own line among the deposits', async () => {
    server.use(
      listHandler([
        deposit(3, {
          _id: 'bonus-1',
          amount: 5,
          kind: 'referral_bonus',
          description: 'Referral bonus: you joined with a referral code',
        }),
        deposit(2, { amount: 20 }),
      ]),
    );
    renderApp('/main/deposit', { token: 'good-token' });
    await waitFor(() => expect(bodyRows()).toHaveLength(2));
    const [bonus, paid] = bodyRows();
    if (!bonus || !paid) throw new Error('two rows expected');
    const tag = within(bonus).getByText('Referral bonus');
    expect(tag).toHaveAttribute('title', 'Referral bonus: you joined with a referral code');
    expect(within(bonus).getAllByRole('cell')[0]).toHaveTextContent('$5Referral bonus');
    expect(within(paid).queryByText('Referral bonus')).not.toBeInTheDocument();
    expect(within(paid).getAllByRole('cell')[0]).toHaveTextContent('$20');
  });

  it("shows 'No deposit found' when there are none", async () => {
    server.use(listHandler([]));
    renderApp('/main/deposit', { token: 'good-token' });
    expect(await screen.findByText('No deposit found')).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: /pages/ })).not.toBeInTheDocument();
  });

  it("shows the server's message when the list cannot be loaded", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    server.use(
      http.get(api('payment/deposits/:userId'), () =>
        HttpResponse.json(
          { code: 'PAYMENTS_UNAVAILABLE', message: 'Payments are down for maintenance' },
          { status: 503 },
        ),
      ),
    );
    renderApp('/main/deposit', { token: 'good-token' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Payments are down for maintenance');
    expect(screen.getByText('No deposit found')).toBeInTheDocument();
  });

  it("falls back to 'Failed to load deposits' when the server gives no message", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    server.use(http.get(api('payment/deposits/:userId'), () => new HttpResponse('Bad gateway', { status: 502 })));
    renderApp('/main/deposit', { token: 'good-token' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load deposits');
  });
});

describe('Deposit page: Pay with BTCPay', () => {
  it("creates the caller's invoice, loads the modal script from the checkout origin and shows the invoice", async () => {
    server.use(listHandler());
    const provider = fakeProvider();
    const requested = topUpHandler(async () => {
      await delay(100);
      return HttpResponse.json(INVOICE);
    });
    const app = renderApp('/main/deposit', { token: 'good-token' });
    await waitFor(() => expect(bodyRows()).toHaveLength(7));

    // By keyboard: the button is reachable and Enter starts the top-up.
    payButton().focus();
    await app.user.keyboard('{Enter}');
    await waitFor(() => expect(payButton()).toBeDisabled());
    expect(payButton()).toHaveAttribute('aria-busy', 'true');

    await waitFor(() => expect(provider.modal.showInvoice).toHaveBeenCalledWith('inv-42'));
    expect(requested).toEqual(['u-1']);
    expect(modalScripts().map((s) => s.src)).toEqual(['https://pay.example.test/modal/btcpay.js']);
    await waitFor(() => expect(payButton()).toBeEnabled());
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    // A second top-up reuses the script already on the page.
    await app.user.click(payButton());
    await waitFor(() => expect(provider.modal.showInvoice).toHaveBeenCalledTimes(2));
    expect(modalScripts()).toHaveLength(1);
  });

  it('reloads the deposit page on screen and the user when the payer leaves the window', async () => {
    server.use(listHandler());
    const provider = fakeProvider();
    topUpHandler(() => HttpResponse.json(INVOICE));
    const app = renderApp('/main/deposit', { token: 'good-token' });
    await waitFor(() => expect(bodyRows()).toHaveLength(7));
    await app.user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(cellTexts(0)).toEqual(['$12', '$11']));

    await app.user.click(payButton());
    await waitFor(() => expect(provider.modal.showInvoice).toHaveBeenCalledWith('inv-42'));
    const listsBefore = listRequests.length;
    const verifiesBefore = verifyCount;

    // The payment was credited meanwhile: the server now has a balance of 62.5 for the user.
    sessionUser = makeUser({ balance: 62.5 });
    provider.leave();
    await waitFor(() => expect(listRequests.length).toBe(listsBefore + 1));
    expect(listRequests.at(-1)).toMatchObject({ page: '2', limit: '7' });
    await waitFor(() => expect(verifyCount).toBe(verifiesBefore + 1));
    await waitFor(() => expect(app.store.getState().auth.user?.balance).toBe(62.5));
    expect(cellTexts(0)).toEqual(['$12', '$11']);

    // The window is closed: later callbacks from the old invoice change nothing.
    provider.leave();
    await delay(50);
    expect(listRequests.length).toBe(listsBefore + 1);
  });

  it("reloads the list and the user when the window reports the invoice 'complete'", async () => {
    server.use(listHandler());
    const provider = fakeProvider();
    topUpHandler(() => HttpResponse.json(INVOICE));
    const app = renderApp('/main/deposit', { token: 'good-token' });
    await waitFor(() => expect(bodyRows()).toHaveLength(7));
    await app.user.click(payButton());
    await waitFor(() => expect(provider.modal.showInvoice).toHaveBeenCalled());
    const listsBefore = listRequests.length;
    const verifiesBefore = verifyCount;

    provider.message({ invoiceId: 'inv-42', status: 'processing' });
    await delay(50);
    expect(listRequests.length).toBe(listsBefore);

    provider.message({ invoiceId: 'inv-42', status: 'complete' });
    await waitFor(() => expect(listRequests.length).toBe(listsBefore + 1));
    await waitFor(() => expect(verifyCount).toBe(verifiesBefore + 1));
    expect(listRequests.at(-1)).toMatchObject({ page: '1' });
  });

  it('logs an invalid invoice reply and resets the button without opening a window', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    server.use(listHandler());
    const provider = fakeProvider();
    const replies = [
      { id: '', checkoutLink: INVOICE.checkoutLink },
      { id: 'inv-1', checkoutLink: 'javascript:alert(1)' },
    ];
    topUpHandler(() => HttpResponse.json(replies.shift() ?? {}));
    const app = renderApp('/main/deposit', { token: 'good-token' });
    await waitFor(() => expect(bodyRows()).toHaveLength(7));

    for (let attempt = 1; attempt <= 2; attempt += 1) {
      await app.user.click(payButton());
      await waitFor(() =>
        expect(logged.mock.calls.filter(([first]) => first === 'Invalid invoice response format')).toHaveLength(
          attempt,
        ),
      );
      await waitFor(() => expect(payButton()).toBeEnabled());
    }
    expect(provider.modal.showInvoice).not.toHaveBeenCalled();
    expect(modalScripts()).toHaveLength(0);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it("shows the server's message in a red toast when the invoice cannot be created", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    server.use(listHandler());
    const provider = fakeProvider();
    topUpHandler(() =>
      HttpResponse.json({ code: 'PAYMENTS_PROVIDER_UNAVAILABLE', message: 'BTCPay is not reachable' }, { status: 502 }),
    );
    const app = renderApp('/main/deposit', { token: 'good-token' });
    await waitFor(() => expect(bodyRows()).toHaveLength(7));
    await app.user.click(payButton());
    const toast = await screen.findByRole('alert');
    expect(toast).toHaveTextContent('BTCPay is not reachable');
    expect(toast).toHaveClass('toast--error');
    expect(payButton()).toBeEnabled();
    expect(provider.modal.showInvoice).not.toHaveBeenCalled();
  });

  it("falls back to 'Failed to create invoice' when the failure has no message", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    server.use(listHandler());
    topUpHandler(() => new HttpResponse(null, { status: 500 }));
    const app = renderApp('/main/deposit', { token: 'good-token' });
    await waitFor(() => expect(bodyRows()).toHaveLength(7));
    await app.user.click(payButton());
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to create invoice');
    expect(payButton()).toBeEnabled();
  });

  it('says the payment window could not be opened when its script fails to load, and tries again on the next click', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    server.use(listHandler());
    const broken = fakeProvider({ fails: true });
    topUpHandler(() => HttpResponse.json(INVOICE));
    const app = renderApp('/main/deposit', { token: 'good-token' });
    await waitFor(() => expect(bodyRows()).toHaveLength(7));

    await app.user.click(payButton());
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not open the payment window. Please try again.');
    expect(payButton()).toBeEnabled();
    expect(broken.modal.showInvoice).not.toHaveBeenCalled();
    expect(modalScripts()).toHaveLength(0);

    for (const stop of stopObservers.splice(0)) stop();
    const working = fakeProvider();
    await app.user.click(payButton());
    await waitFor(() => expect(working.modal.showInvoice).toHaveBeenCalledWith('inv-42'));
  });
});
