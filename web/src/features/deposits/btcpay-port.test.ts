import { afterEach, describe, expect, it, vi } from 'vitest';
import { type BtcpayModal, btcpayPort, modalScriptUrl, resetBtcpayPortForTests } from './btcpay-port';

afterEach(() => resetBtcpayPortForTests());

const modalScripts = () => [...document.head.querySelectorAll<HTMLScriptElement>('script[data-btcpay-modal]')];

function fakeModal() {
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
  return { modal, callbacks };
}

describe('btcpay port', () => {
  it('takes the modal script from the origin of the checkout link', () => {
    expect(modalScriptUrl('https://pay.example.test/i/abc?x=1')).toBe('https://pay.example.test/modal/btcpay.js');
    expect(modalScriptUrl('http://localhost:4170/i/abc')).toBe('http://localhost:4170/modal/btcpay.js');
  });

  it('adds the script once and reuses it for later loads of the same address', async () => {
    const src = 'https://pay.example.test/modal/btcpay.js';
    const first = btcpayPort.loadScript(src);
    const second = btcpayPort.loadScript(src);
    expect(modalScripts()).toHaveLength(1);
    expect(modalScripts()[0]?.src).toBe(src);

    window.btcpay = fakeModal().modal;
    modalScripts()[0]?.dispatchEvent(new Event('load'));
    await expect(first).resolves.toBeUndefined();
    await expect(second).resolves.toBeUndefined();
    await btcpayPort.loadScript(src);
    expect(modalScripts()).toHaveLength(1);
  });

  it('rejects and forgets a script that fails to load, so the next attempt loads it again', async () => {
    const src = 'https://pay.example.test/modal/btcpay.js';
    const attempt = btcpayPort.loadScript(src);
    modalScripts()[0]?.dispatchEvent(new Event('error'));
    await expect(attempt).rejects.toThrow('Could not load');
    expect(modalScripts()).toHaveLength(0);

    void btcpayPort.loadScript(src).catch(() => {});
    expect(modalScripts()).toHaveLength(1);
  });

  it('rejects a script that loads without defining window.btcpay', async () => {
    const attempt = btcpayPort.loadScript('https://pay.example.test/modal/btcpay.js');
    modalScripts()[0]?.dispatchEvent(new Event('load'));
    await expect(attempt).rejects.toThrow('did not define window.btcpay');
  });

  it("opens the invoice and reports leaving and 'complete' messages until it is told to stop", () => {
    const { modal, callbacks } = fakeModal();
    window.btcpay = modal;
    const events: string[] = [];
    const stop = btcpayPort.openInvoice('inv-1', (event) => events.push(event));
    expect(modal.showInvoice).toHaveBeenCalledWith('inv-1');

    callbacks.message?.({ data: { invoiceId: 'inv-1', status: 'paid' } });
    callbacks.message?.({ data: 'loaded' });
    callbacks.message?.({ data: { invoiceId: 'inv-1', status: 'complete' } });
    callbacks.leave?.();
    expect(events).toEqual(['complete', 'left']);

    stop();
    callbacks.leave?.();
    expect(events).toEqual(['complete', 'left']);
  });

  it('refuses to open an invoice before the script is loaded', () => {
    expect(() => btcpayPort.openInvoice('inv-1', () => {})).toThrow('not loaded');
  });
});
