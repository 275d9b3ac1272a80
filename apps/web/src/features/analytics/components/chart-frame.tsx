import { useId, type ReactNode } from 'react';

/**
 * A chart card: the picture is hidden from screen readers, which get the summary sentence and a
 * visually hidden table of every number instead (the table is the chart's accessible twin).
 */
export function ChartFrame({
  title,
  summary,
  table,
  legend,
  children,
}: {
  title: string;
  summary: string;
  table: ReactNode;
  legend?: ReactNode;
  children: ReactNode;
}) {
  const titleId = useId();
  return (
    <section
      aria-labelledby={titleId}
      className="flex min-w-0 flex-col gap-3 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 id={titleId} className="text-lg font-semibold text-slate-900">
        {title}
      </h2>
      <p className="text-sm text-slate-600">{summary}</p>
      {legend}
      <div aria-hidden="true">{children}</div>
      <div className="sr-only">{table}</div>
    </section>
  );
}
