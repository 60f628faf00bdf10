/**
 * The payment provider's checkout modal, behind one small object so sagas can
 * be tested without a real script. The provider serves
 * `{origin of checkoutLink}/modal/btcpay.js`, which defines `window.btcpay`
 * (proto/src/btcpay.ts describes the contract).
 */

/** What the modal script defines on `window.btcpay`. */
export interface BtcpayModal {
  showInvoice(invoiceId: string): void;
  /** One callback at a time: a later call replaces the earlier one. */
  onModalWillLeave(callback: () => void): void;
  /** Messages the checkout page posts to the opener, e.g. `{ invoiceId, status: 'complete' }`. */
  onModalReceiveMessage?(callback: (event: { data?: unknown }) => void): void;
}

declare global {
  interface Window {
    btcpay?: BtcpayModal;
  }
}

/** Something the open modal reports: the payer left it, or the invoice was paid. */
export type ModalEvent = 'left' | 'complete';

/** Where the modal script of a checkout link lives. Throws on a link that is not a URL. */
export function modalScriptUrl(checkoutLink: string): string {
  return new URL('/modal/btcpay.js', checkoutLink).href;
}

function currentModal(): BtcpayModal | null {
  const modal = window.btcpay;
  return modal && typeof modal.showInvoice === 'function' && typeof modal.onModalWillLeave === 'function'
    ? modal
    : null;
}

// One load per script address for the life of the page; a failed load is forgotten so a retry loads again.
const loads = new Map<string, Promise<void>>();

function loadScript(src: string): Promise<void> {
  const known = loads.get(src);
  if (known) return known;
  const script = document.createElement('script');
  const loading = new Promise<void>((resolve, reject) => {
    script.src = src;
    script.async = true;
    script.dataset.btcpayModal = 'true';
    script.addEventListener('load', () => {
      if (currentModal()) resolve();
      else reject(new Error(`${src} loaded but did not define window.btcpay`));
    });
    script.addEventListener('error', () => reject(new Error(`Could not load ${src}`)));
    document.head.append(script);
  });
  loads.set(src, loading);
  loading.catch(() => {
    loads.delete(src);
    script.remove();
  });
  return loading;
}

function isCompleteMessage(event: { data?: unknown }): boolean {
  const data = event?.data;
  return typeof data === 'object' && data !== null && 'status' in data && data.status === 'complete';
}

/**
 * Opens `invoiceId` in the loaded modal and reports its events to `listener`
 * until the returned function is called.
 */
function openInvoice(invoiceId: string, listener: (event: ModalEvent) => void): () => void {
  const modal = currentModal();
  if (!modal) throw new Error('The payment modal script is not loaded');
  let isListening = true;
  const emit = (event: ModalEvent) => {
    if (isListening) listener(event);
  };
  modal.onModalWillLeave(() => emit('left'));
  modal.onModalReceiveMessage?.((event) => {
    if (isCompleteMessage(event)) emit('complete');
  });
  modal.showInvoice(invoiceId);
  return () => {
    isListening = false;
  };
}

export const btcpayPort = {
  /** Loads the modal script from `src` once; resolves when `window.btcpay` is ready. */
  loadScript,
  openInvoice,
};

/** Forgets loaded scripts; for tests only. */
export function resetBtcpayPortForTests(): void {
  loads.clear();
  for (const script of document.head.querySelectorAll('script[data-btcpay-modal]')) script.remove();
  delete window.btcpay;
}
