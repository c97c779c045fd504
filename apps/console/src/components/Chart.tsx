import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface Series {
  label: string;
  color: string;
  /** Decimal strings from the API; a chart only draws them, so a float is fine here. */
  values: (string | null)[];
}

const dayToSeconds = (day: string) => Date.parse(`${day}T00:00:00Z`) / 1000;

/** A line chart of series over days (`YYYY-MM-DD`), sized to its container. */
export function DayChart({
  title,
  days,
  series,
  height = 240,
}: {
  title: string;
  days: string[];
  series: Series[];
  height?: number;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (element === null) return;
    const data: uPlot.AlignedData = [
      days.map(dayToSeconds),
      ...series.map((s) => s.values.map((v) => (v === null ? null : Number(v)))),
    ];
    const plot = new uPlot(
      {
        title,
        width: element.clientWidth || 600,
        height,
        series: [{}, ...series.map((s) => ({ label: s.label, stroke: s.color, width: 1.5 }))],
        axes: [{}, { size: 80 }],
      },
      data,
      element,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: element.clientWidth, height }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [title, days, series, height]);
  return <div className="chart" ref={box} role="img" aria-label={title} />;
}
