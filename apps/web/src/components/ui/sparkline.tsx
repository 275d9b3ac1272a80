/** One point of a sparkline: `x` in any unit (a time in ms), `y` null where nothing was read. */
export interface SparkPoint {
  x: number;
  y: number | null;
}

/**
 * A small line without axes (a post's views since publishing). Purely decorative: it is hidden
 * from screen readers, so the caller must say the same in words (docs/analytics.md#screen).
 * Points without a value are skipped; one point is drawn as a dot.
 */
export function Sparkline({
  points,
  color = '#0072B2',
  width = 120,
  height = 32,
  className,
}: {
  points: SparkPoint[];
  /** Okabe–Ito blue unless told. */
  color?: string;
  width?: number;
  height?: number;
  className?: string;
}) {
  const known = points.filter((point): point is { x: number; y: number } => point.y !== null);
  const pad = 3;
  const xs = known.map((point) => point.x);
  const ys = known.map((point) => point.y);
  const [minX, maxX] = [Math.min(...xs), Math.max(...xs)];
  const [minY, maxY] = [Math.min(0, ...ys), Math.max(...ys)];
  const sx = (x: number) =>
    maxX === minX ? width / 2 : pad + ((x - minX) / (maxX - minX)) * (width - 2 * pad);
  const sy = (y: number) =>
    maxY === minY ? height - pad : height - pad - ((y - minY) / (maxY - minY)) * (height - 2 * pad);
  const last = known.at(-1);
  return (
    <svg
      aria-hidden="true"
      focusable="false"
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      className={className}
      data-testid="sparkline"
    >
      <line x1={0} x2={width} y1={height - pad + 0.5} y2={height - pad + 0.5} stroke="#e2e8f0" />
      {known.length > 1 && (
        <polyline
          fill="none"
          stroke={color}
          strokeWidth={2}
          strokeLinejoin="round"
          strokeLinecap="round"
          points={known.map((point) => `${sx(point.x)},${sy(point.y)}`).join(' ')}
        />
      )}
      {last && <circle cx={sx(last.x)} cy={sy(last.y)} r={2.5} fill={color} />}
    </svg>
  );
}
