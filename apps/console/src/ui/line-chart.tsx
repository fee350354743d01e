// A line chart (uPlot: about 50 KB, no dependencies). Pages show the same numbers as a table beside
// it, so the chart itself is presentational (aria-hidden) and the table is what screen readers read.
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface Series {
  key: string;
  points: { at: string; value: number }[];
}

const COLOURS = ['#2563eb', '#dc2626', '#059669', '#d97706', '#7c3aed', '#db2777', '#0891b2', '#65a30d'];

/** Axes drawn in the theme's colours (the canvas does not read CSS): labels in the muted ink, grid in the line. */
function axis(element: HTMLElement): uPlot.Axis {
  const style = getComputedStyle(element);
  const line = style.getPropertyValue('--line').trim() || '#d1d5db';
  return {
    stroke: style.getPropertyValue('--muted').trim() || '#4b5563',
    grid: { stroke: line, width: 1 },
    ticks: { stroke: line, width: 1 },
  };
}

export function LineChart({ series, height = 260 }: { series: Series[]; height?: number }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element || series.length === 0) return;
    const times = series[0].points.map((p) => new Date(p.at).getTime() / 1000);
    const data: uPlot.AlignedData = [times, ...series.map((s) => s.points.map((p) => p.value))];
    const chart = new uPlot(
      {
        width: Math.max(element.clientWidth, 320),
        height,
        series: [
          {},
          ...series.map((s, i) => ({ label: s.key || '(none)', stroke: COLOURS[i % COLOURS.length], width: 2 })),
        ],
        axes: [axis(element), { ...axis(element), size: 60 }],
      },
      data,
      element,
    );
    const resize = () => chart.setSize({ width: Math.max(element.clientWidth, 320), height });
    window.addEventListener('resize', resize);
    return () => {
      window.removeEventListener('resize', resize);
      chart.destroy();
    };
  }, [series, height]);
  return <div className="chart" ref={box} aria-hidden="true" />;
}
