/** `SANDBOX_CARRIER_BALANCE` when it is not set: what a simulated carrier account holds, in dollars. */
export const DEFAULT_SANDBOX_CARRIER_BALANCE = 10_000;
