/**
 * `/modal/btcpay.js`: the same `window.btcpay` surface as BTCPay Server's
 * modal script, so a page written for the real server works unchanged. The
 * checkout page opens in a full-screen iframe on the simulator's own origin,
 * and only messages from that origin are listened to.
 *
 * @param defaultOrigin used when the script cannot tell where it was loaded from
 */
export function renderModalScript(defaultOrigin: string): string {
  return `/* BTCPay Server simulator: modal checkout (window.btcpay) */
(function () {
  'use strict';
  var current = document.currentScript;
  var apiUrlPrefix = current && current.src ? new URL(current.src).origin : ${JSON.stringify(defaultOrigin)};
  var overlay = null;
  var frame = null;
  var previousFocus = null;
  var onEnter = function () {};
  var onLeave = function () {};
  var onMessage = function () {};

  function frameOrigin() {
    return frame ? new URL(frame.src).origin : new URL(apiUrlPrefix).origin;
  }

  function onKeyDown(event) {
    if (event.key === 'Escape') hideFrame();
  }

  function onWindowMessage(event) {
    if (!frame || event.origin !== frameOrigin() || event.source !== frame.contentWindow) return;
    if (event.data === 'close') hideFrame();
    else if (event.data && typeof event.data === 'object') onMessage(event);
  }

  function showInvoice(invoiceId) {
    if (overlay) hideFrame();
    previousFocus = document.activeElement;
    overlay = document.createElement('div');
    overlay.setAttribute('role', 'dialog');
    overlay.setAttribute('aria-modal', 'true');
    overlay.setAttribute('aria-label', 'BTCPay checkout (simulator)');
    overlay.setAttribute('data-btcpay-overlay', '');
    var s = overlay.style;
    s.position = 'fixed';
    s.inset = '0';
    s.zIndex = '2147483647';
    s.background = 'rgba(0, 0, 0, 0.6)';
    frame = document.createElement('iframe');
    frame.name = 'btcpay';
    frame.title = 'BTCPay checkout (simulator)';
    frame.src = apiUrlPrefix.replace(/\\/$/, '') + '/i/' + encodeURIComponent(invoiceId) + '?view=modal';
    var f = frame.style;
    f.width = '100%';
    f.height = '100%';
    f.border = '0';
    f.display = 'block';
    f.background = 'transparent';
    frame.setAttribute('allowtransparency', 'true');
    overlay.appendChild(frame);
    document.body.appendChild(overlay);
    document.addEventListener('keydown', onKeyDown);
    frame.addEventListener('load', function () {
      if (frame) frame.focus();
    });
    frame.focus();
    onEnter();
  }

  function hideFrame() {
    if (!overlay) return;
    document.removeEventListener('keydown', onKeyDown);
    overlay.remove();
    overlay = null;
    frame = null;
    if (previousFocus && typeof previousFocus.focus === 'function') previousFocus.focus();
    previousFocus = null;
    onLeave();
  }

  window.addEventListener('message', onWindowMessage);

  window.btcpay = {
    showInvoice: showInvoice,
    hideFrame: hideFrame,
    // As in BTCPay's script, each registration replaces the previous callback.
    onModalWillEnter: function (callback) { onEnter = callback || function () {}; },
    onModalWillLeave: function (callback) { onLeave = callback || function () {}; },
    onModalReceiveMessage: function (callback) { onMessage = callback || function () {}; },
    setApiUrlPrefix: function (url) { apiUrlPrefix = String(url).replace(/\\/$/, ''); }
  };
})();
`;
}
