import { MAX_PAYMENT, refusalToPay, type StoredInvoice } from './invoices';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** Inside a `<script>`, JSON must not be able to close the element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

export interface CheckoutPageOptions {
  invoice: StoredInvoice;
  isModal: boolean;
  /** Shown above the form, e.g. why a payment was refused. */
  error?: string;
  /** What the payer last typed, kept when the page comes back with an error. */
  enteredAmount?: string;
}

const STYLE = `
  :root { color-scheme: light; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
  body { margin: 0; background: #f1f3f5; color: #1b1f23; }
  body.modal { background: transparent; }
  main { max-width: 26rem; margin: 2rem auto; background: #fff; border-radius: 0.75rem; padding: 1.5rem;
    box-shadow: 0 0.5rem 2rem rgba(0, 0, 0, 0.15); }
  .sim { margin: 0 0 1rem; padding: 0.5rem 0.75rem; border-radius: 0.5rem; background: #fff3bf; color: #5c3c00;
    font-size: 0.875rem; }
  h1 { font-size: 1.25rem; margin: 0 0 0.75rem; }
  dl { display: grid; grid-template-columns: auto 1fr; gap: 0.25rem 1rem; margin: 0 0 1rem; }
  dt { color: #555; } dd { margin: 0; overflow-wrap: anywhere; }
  label { display: block; font-weight: 600; margin-bottom: 0.25rem; }
  input { width: 100%; box-sizing: border-box; font-size: 1rem; padding: 0.5rem; border: 1px solid #868e96; border-radius: 0.375rem; }
  button { font-size: 1rem; padding: 0.6rem 1rem; border-radius: 0.375rem; border: 1px solid transparent; cursor: pointer; }
  .primary { background: #0f7b3f; color: #fff; width: 100%; margin-top: 0.75rem; }
  .secondary { background: #fff; color: #1b1f23; border-color: #868e96; width: 100%; margin-top: 0.5rem; }
  button:focus-visible, input:focus-visible { outline: 3px solid #1c7ed6; outline-offset: 2px; }
  .error { color: #a51d24; background: #fff0f0; border-radius: 0.375rem; padding: 0.5rem 0.75rem; }
  .done { color: #0f7b3f; }
`;

function details(invoice: StoredInvoice): string {
  const isTopUpUnpaid = invoice.type === 'TopUp' && invoice.status !== 'Settled' && invoice.status !== 'Processing';
  const amount = isTopUpUnpaid ? 'Any amount (top-up)' : `${invoice.amount} ${invoice.currency}`;
  return `<dl>
    <dt>Invoice</dt><dd>${escapeHtml(invoice.id)}</dd>
    <dt>Amount</dt><dd>${escapeHtml(amount)}</dd>
    <dt>Status</dt><dd>${escapeHtml(invoice.status)}</dd>
  </dl>`;
}

function payForm(invoice: StoredInvoice, query: string, enteredAmount?: string): string {
  const action = `/i/${encodeURIComponent(invoice.id)}`;
  const amountField =
    invoice.type === 'TopUp'
      ? `<label for="amount">Amount (USD)</label>
    <input id="amount" name="amount" type="number" inputmode="decimal" min="0.01" step="0.01" max="${MAX_PAYMENT}"
      required value="${escapeHtml(enteredAmount ?? '')}" autofocus>`
      : `<input type="hidden" name="amount" value="${escapeHtml(invoice.amount)}">`;
  const payLabel =
    invoice.type === 'TopUp' ? 'Pay' : `Pay ${escapeHtml(invoice.amount)} ${escapeHtml(invoice.currency)}`;
  return `<form method="post" action="${action}/pay${query}">
    ${amountField}
    <button type="submit" class="primary"${invoice.type === 'TopUp' ? '' : ' autofocus'}>${payLabel}</button>
  </form>
  <form method="post" action="${action}/expire${query}">
    <button type="submit" class="secondary">Expire</button>
  </form>`;
}

function outcome(invoice: StoredInvoice): string {
  if (invoice.status === 'Settled' || invoice.status === 'Processing') {
    return `<h2 class="done">Payment received</h2>
    <p>${escapeHtml(invoice.amount)} ${escapeHtml(invoice.currency)} paid.</p>`;
  }
  if (invoice.status === 'Expired') return '<h2>Invoice expired</h2><p>Nothing was paid.</p>';
  return `<h2>Invoice ${escapeHtml(invoice.status.toLowerCase())}</h2>`;
}

/**
 * The checkout page: standalone or inside the modal's iframe. It is plain HTML
 * with forms, so it works without scripts; the small script only talks to the
 * opener (close, complete) the way BTCPay's checkout does.
 */
export function renderCheckoutPage(opts: CheckoutPageOptions): string {
  const { invoice, isModal, error } = opts;
  const query = isModal ? '?view=modal' : '';
  const canPay = refusalToPay(invoice) === null;
  const status =
    invoice.status === 'Settled' ? 'complete' : invoice.status === 'Expired' ? 'expired' : invoice.status.toLowerCase();
  const message =
    invoice.status === 'Settled' || invoice.status === 'Expired' ? { invoiceId: invoice.id, status } : null;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Invoice ${escapeHtml(invoice.id)} · BTCPay Server simulator</title>
<style>${STYLE}</style>
</head>
<body class="${isModal ? 'modal' : 'page'}">
<main aria-labelledby="title">
  <p class="sim" role="note"><strong>BTCPay Server simulator</strong> — for local runs only; no real payment is made.</p>
  <h1 id="title">${canPay ? 'Pay invoice' : 'Invoice'}</h1>
  ${details(invoice)}
  ${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
  ${canPay ? payForm(invoice, query, opts.enteredAmount) : `<div role="status">${outcome(invoice)}</div>`}
  ${canPay ? '' : '<button type="button" class="primary" id="close" autofocus>Close</button>'}
</main>
<script>
(function () {
  var isFramed = window.parent !== window;
  var redirectUrl = ${scriptJson(invoice.redirectUrl ?? null)};
  var message = ${scriptJson(message)};
  function close() {
    if (isFramed) window.parent.postMessage('close', '*');
    else if (redirectUrl) window.location.href = redirectUrl;
    else window.close();
  }
  // The messages carry nothing secret and the opener's origin is not known here.
  if (isFramed && message) window.parent.postMessage(message, '*');
  var button = document.getElementById('close');
  if (button) button.addEventListener('click', close);
  document.addEventListener('keydown', function (e) { if (e.key === 'Escape' && isFramed) close(); });
})();
</script>
</body>
</html>
`;
}

export function renderNotFoundPage(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Invoice not found · BTCPay Server simulator</title><style>${STYLE}</style></head>
<body><main><p class="sim" role="note"><strong>BTCPay Server simulator</strong></p><h1>Invoice not found</h1></main></body></html>
`;
}
