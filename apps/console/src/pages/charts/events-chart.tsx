// The events chart (uPlot), in a box of fixed height so nothing below it moves while answers load, with
// a legend of our own under it: each series' colour and name, and while the pointer is over the chart the
// bucket and each series' value there (uPlot's own legend read "Time: --" with the pointer elsewhere).
// The table beside it carries the same numbers for screen readers, so the drawing is aria-hidden.
import { ReactNode, useEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { bucketName } from './question';

export interface LabelledSeries {
  label: string;
  points: ReadonlyArray<{ at: string; value: number }>;
}

/** The drawing's height; the box keeps it whether loading, empty or drawn. */
const CHART_HEIGHT = 260;
const COLOURS = ['#2563eb', '#dc2626', '#059669', '#d97706', '#7c3aed', '#db2777', '#0891b2', '#65a30d'];
const NUMBER = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 });

/** The box, holding a state sentence until there is something to draw. */
export function ChartBox({ children }: { children: ReactNode }) {
  return <div className="chart-box">{children}</div>;
}

function axisColour(element: HTMLElement): string {
  return getComputedStyle(element).color || '#111827';
}

/** Whether the system asks for dark now; the drawing's axes are drawn again in the theme's ink when it changes. */
function useDark(): boolean {
  const query = '(prefers-color-scheme: dark)';
  const [dark, setDark] = useState(() => window.matchMedia(query).matches);
  useEffect(() => {
    const media = window.matchMedia(query);
    const change = () => setDark(media.matches);
    media.addEventListener('change', change);
    return () => media.removeEventListener('change', change);
  }, []);
  return dark;
}

function useDrawing(series: readonly LabelledSeries[], onCursor: (index: number | null) => void) {
  const box = useRef<HTMLDivElement>(null);
  const dark = useDark();
  useEffect(() => {
    const element = box.current;
    if (!element || series.length === 0) return;
    const times = series[0].points.map((p) => new Date(p.at).getTime() / 1000);
    const data: uPlot.AlignedData = [times, ...series.map((s) => s.points.map((p) => p.value))];
    const ink = axisColour(element);
    const axis = { stroke: ink, grid: { stroke: 'rgba(128,128,128,.25)' }, ticks: { stroke: 'rgba(128,128,128,.4)' } };
    const chart = new uPlot(
      {
        width: Math.max(element.clientWidth, 280),
        height: CHART_HEIGHT,
        legend: { show: false },
        series: [{}, ...series.map((s, i) => ({ label: s.label, stroke: COLOURS[i % COLOURS.length], width: 2 }))],
        axes: [axis, { ...axis, size: 60 }],
        hooks: { setCursor: [(u) => onCursor(u.cursor.idx ?? null)] },
      },
      data,
      element,
    );
    const resize = () => chart.setSize({ width: Math.max(element.clientWidth, 280), height: CHART_HEIGHT });
    window.addEventListener('resize', resize);
    return () => {
      window.removeEventListener('resize', resize);
      chart.destroy();
    };
  }, [series, onCursor, dark]);
  return box;
}

export function EventsChart({
  series,
  interval,
  range,
}: {
  series: readonly LabelledSeries[];
  interval: string;
  range: string;
}) {
  const [index, setIndex] = useState<number | null>(null);
  const box = useDrawing(series, setIndex);
  const at = index === null ? null : series[0]?.points[index]?.at;
  return (
    <>
      <ChartBox>
        <div className="chart-drawing" ref={box} aria-hidden="true" />
      </ChartBox>
      <div className="chart-legend" aria-hidden="true">
        <span className="chart-legend-at">{at ? bucketName(at, interval) : range}</span>
        <ul>
          {series.map((s, i) => (
            <li key={s.label}>
              <span className="swatch" style={{ background: COLOURS[i % COLOURS.length] }} />
              {s.label}
              {index === null ? null : <strong>{NUMBER.format(s.points[index]?.value ?? 0)}</strong>}
            </li>
          ))}
        </ul>
      </div>
    </>
  );
}
