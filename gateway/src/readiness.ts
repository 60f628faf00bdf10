/**
 * The gateway is ready when every configured service (and every process
 * listed in READY_ALSO) says it is ready: a replica that would answer 503 to
 * most calls should not receive traffic.
 * Checked in parallel with a short timeout so one hung service cannot stall
 * the probe.
 */
export function createUpstreamReadiness(upstreams: Record<string, string | undefined>, timeoutMs: number) {
  const entries = Object.entries(upstreams).filter((e): e is [string, string] => e[1] !== undefined);
  return async (): Promise<void> => {
    const results = await Promise.all(
      entries.map(async ([name, base]) => {
        try {
          const res = await fetch(`${base}/readyz`, { signal: AbortSignal.timeout(timeoutMs) });
          await res.body?.cancel();
          return res.status === 200 ? null : name;
        } catch {
          return name;
        }
      }),
    );
    const waiting = results.filter((n): n is string => n !== null);
    if (waiting.length > 0) throw new Error(`waiting for ${waiting.join(', ')}`);
  };
}
