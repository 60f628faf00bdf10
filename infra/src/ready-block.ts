/**
 * What the launcher prints once everything is ready, as one block: the URL, the BTCPay simulator (when it
 * runs), the generated admin sign-in (first start only), and always this last line. Scripts and tests read
 * until the last line, so they never depend on how the output reaches them.
 */
export const READY_BLOCK_END = 'Press Ctrl-C to stop.';
export const READY_LINE = /Flatship is running at (\S+)/;
export const BTCPAY_LINE = /BTCPay simulator: (\S+)/;
export const ADMIN_LINE = /Admin sign-in: \S+ \/ (\S+)/;
