import type { RankingDay } from '@flatship/proto';
import { formatMoney } from '../../../app/format';

const WIDTH = 720;
const HEIGHT = 220;
const PAD = { top: 16, right: 56, bottom: 28, left: 44 };

/** A round axis maximum at or above `max`. */
function niceMax(max: number): number {
  if (max <= 0) return 1;
  const step = 10 ** Math.floor(Math.log10(max));
  return Math.ceil(max / step) * step;
}

/**
 * Labels (bars, left axis) and revenue (line, right axis) per day of the period, as inline SVG. The figures
 * are also in a visually hidden table, so screen readers get them without the drawing.
 */
export function RankingsChart({ days }: { days: RankingDay[] }) {
  const maxLabels = niceMax(Math.max(0, ...days.map((d) => d.labels)));
  const maxRevenue = niceMax(Math.max(0, ...days.map((d) => d.revenue)));
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const slot = plotW / Math.max(1, days.length);
  const barW = Math.max(1, slot * 0.7);
  const x = (i: number) => PAD.left + i * slot + slot / 2;
  const yLabels = (v: number) => PAD.top + plotH - (v / maxLabels) * plotH;
  const yRevenue = (v: number) => PAD.top + plotH - (v / maxRevenue) * plotH;
  const line = days
    .map((d, i) => `${i === 0 ? 'M' : 'L'}${x(i).toFixed(1)},${yRevenue(d.revenue).toFixed(1)}`)
    .join(' ');
  // At most ~8 date ticks, whatever the period's length.
  const every = Math.max(1, Math.ceil(days.length / 8));

  return (
    <figure className="rankings-chart">
      <figcaption className="rankings-chart__legend">
        <span className="rankings-chart__key rankings-chart__key--labels">Labels per day</span>
        <span className="rankings-chart__key rankings-chart__key--revenue">Revenue per day</span>
      </figcaption>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-label={`Labels and revenue per day, ${days[0]?.date ?? ''} to ${days.at(-1)?.date ?? ''}`}
        className="rankings-chart__svg"
      >
        <line
          x1={PAD.left}
          y1={PAD.top + plotH}
          x2={PAD.left + plotW}
          y2={PAD.top + plotH}
          className="rankings-chart__axis"
        />
        <text x={PAD.left - 6} y={PAD.top + 4} textAnchor="end" className="rankings-chart__tick">
          {maxLabels}
        </text>
        <text x={PAD.left - 6} y={PAD.top + plotH} textAnchor="end" className="rankings-chart__tick">
          0
        </text>
        <text x={PAD.left + plotW + 6} y={PAD.top + 4} className="rankings-chart__tick">
          {formatMoney(maxRevenue)}
        </text>
        {days.map((d, i) => (
          <rect
            key={d.date}
            data-testid="rankings-chart-bar"
            x={x(i) - barW / 2}
            y={yLabels(d.labels)}
            width={barW}
            height={PAD.top + plotH - yLabels(d.labels)}
            className="rankings-chart__bar"
          >
            <title>{`${d.date}: ${d.labels} labels, ${formatMoney(d.revenue)}`}</title>
          </rect>
        ))}
        {days.length > 0 ? <path d={line} className="rankings-chart__line" /> : null}
        {days.map((d, i) =>
          i % every === 0 ? (
            <text key={d.date} x={x(i)} y={HEIGHT - 8} textAnchor="middle" className="rankings-chart__tick">
              {d.date.slice(5)}
            </text>
          ) : null,
        )}
      </svg>
      <table className="visually-hidden">
        <caption>Labels and revenue per day</caption>
        <thead>
          <tr>
            <th>Date</th>
            <th>Labels</th>
            <th>Revenue</th>
          </tr>
        </thead>
        <tbody>
          {days.map((d) => (
            <tr key={d.date}>
              <td>{d.date}</td>
              <td>{d.labels}</td>
              <td>{formatMoney(d.revenue)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
