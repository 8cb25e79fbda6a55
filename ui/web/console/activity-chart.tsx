import type { AnyMessageKey } from "../../shared/messages/console.ts";
import type { OverviewBucket, OverviewRange } from "../console-state.ts";
import { useConsole } from "./context.tsx";

// A bar chart of one series of the overview's activity, drawn as SVG here (no chart library): an image with
// its summary as its accessible name (the figures themselves are in the table under the charts), bars
// coloured by the theme's custom properties (light and dark), each bar's figure in a tooltip.

export type ActivitySeries = "signUps" | "signIns" | "failedSignIns";

const WIDTH = 240;
const HEIGHT = 120;
const LEFT = 26;
const BOTTOM = 16;
const TOP = 6;
const PLOT_WIDTH = WIDTH - LEFT - 2;
const PLOT_HEIGHT = HEIGHT - TOP - BOTTOM;

/** Coordinates to a hundredth: shorter markup, the same on the server and in the browser. */
const at = (value: number): number => Math.round(value * 100) / 100;

/** A bucket's name on the axis and in the table: "15:00" for an hour, "11-27" for a day (UTC). */
export function bucketLabel(range: OverviewRange, start: string): string {
  return range === "24h" ? start.slice(11, 16) : start.slice(5, 10);
}

/** The top of the scale: the largest figure rounded up to 1, 2 or 5 times a power of ten (at least 1). */
function scaleTop(largest: number): number {
  if (largest <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(largest));
  return [1, 2, 5, 10].map((step) => step * power).find((top) => top >= largest) ?? largest;
}

export function ActivityChart({
  series,
  range,
  buckets,
}: {
  series: ActivitySeries;
  range: OverviewRange;
  buckets: OverviewBucket[];
}) {
  const { t, state } = useConsole();
  const number = new Intl.NumberFormat(state.locale);
  const values = buckets.map((bucket) => bucket[series]);
  const total = values.reduce((sum, value) => sum + value, 0);
  const largest = Math.max(0, ...values);
  const busiest = values.indexOf(largest);
  const top = scaleTop(largest);
  const slot = PLOT_WIDTH / Math.max(1, buckets.length);
  const name = t(`console.overview.series.${series}` as AnyMessageKey);
  const summary =
    total === 0
      ? t(`console.overview.chart.none.${range}` as AnyMessageKey, { series: name })
      : t(`console.overview.chart.${range}` as AnyMessageKey, {
          series: name,
          total: number.format(total),
          peak: number.format(largest),
          when: bucketLabel(range, buckets[busiest].start),
        });
  const ticks = [
    0,
    Math.round((buckets.length - 1) / 3),
    Math.round((2 * (buckets.length - 1)) / 3),
    buckets.length - 1,
  ];
  return (
    <figure className="authd-console-chart">
      <figcaption className="authd-console-chart-title">
        {name} <span className="authd-console-chart-total">{number.format(total)}</span>
      </figcaption>
      <svg
        className={`authd-console-chart-image authd-console-chart-${series}`}
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-label={summary}
      >
        <line
          className="authd-console-chart-axis"
          x1={LEFT}
          x2={WIDTH - 2}
          y1={TOP + PLOT_HEIGHT}
          y2={TOP + PLOT_HEIGHT}
        />
        <line className="authd-console-chart-grid" x1={LEFT} x2={WIDTH - 2} y1={TOP} y2={TOP} />
        <text className="authd-console-chart-text" x={LEFT - 4} y={TOP + 4} textAnchor="end">
          {number.format(top)}
        </text>
        <text className="authd-console-chart-text" x={LEFT - 4} y={TOP + PLOT_HEIGHT} textAnchor="end">
          0
        </text>
        {values.map((value, index) => {
          const height = (value / top) * PLOT_HEIGHT;
          return value === 0 ? null : (
            <rect
              key={buckets[index].start}
              className="authd-console-chart-bar"
              x={at(LEFT + index * slot + slot * 0.15)}
              y={at(TOP + PLOT_HEIGHT - height)}
              width={at(slot * 0.7)}
              height={at(height)}
            >
              <title>{`${bucketLabel(range, buckets[index].start)}: ${number.format(value)}`}</title>
            </rect>
          );
        })}
        {[...new Set(ticks)].map((index, place, all) => (
          <text
            key={index}
            className="authd-console-chart-text"
            x={at(LEFT + index * slot + slot / 2)}
            y={HEIGHT - 3}
            textAnchor={place === 0 ? "start" : place === all.length - 1 ? "end" : "middle"}
          >
            {bucketLabel(range, buckets[index].start)}
          </text>
        ))}
      </svg>
    </figure>
  );
}
