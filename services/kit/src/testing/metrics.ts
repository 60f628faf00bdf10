/** A series' value in a Prometheus text page, whatever the order of its labels; 0 when absent. */
export function metricSample(page: string, name: string, labels: Record<string, string>): number {
  for (const line of page.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const body = line.slice(name.length + 1, line.lastIndexOf('}'));
    const got = Object.fromEntries(body.split(',').map((pair) => pair.split('=').map((v) => v.replace(/"/g, ''))));
    if (Object.entries(labels).every(([k, v]) => got[k] === v)) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return 0;
}
