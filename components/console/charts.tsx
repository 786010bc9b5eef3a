"use client";

import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  Legend,
  Pie,
  PieChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";

/**
 * The console's charts (recharts). They receive only the numbers they draw and their labels. Each one
 * is a figure with a heading, a one-line summary everyone reads and a visually hidden table of the
 * numbers for screen readers; the SVG itself is hidden from assistive technology.
 */

export interface ChartSeries {
  key: string;
  label: string;
  /** A fill that reads on light and dark backgrounds. */
  color: string;
}

export interface ChartRow {
  label: string;
  values: Record<string, number>;
}

const TICK = { fill: "currentColor", fontSize: 12 };

function ChartFigure({
  id,
  title,
  summary,
  table,
  children,
}: {
  id: string;
  title: string;
  summary: string;
  table: React.ReactNode;
  children: React.ReactNode;
}) {
  return (
    <figure
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-summary`}
      className="rounded-lg bg-white p-4 shadow-xs ring-1 ring-slate-200 sm:p-6 dark:bg-slate-900 dark:ring-slate-700"
      data-testid={`chart-${id}`}
    >
      <h2 id={`${id}-title`} className="text-base font-semibold text-slate-900 dark:text-white">
        {title}
      </h2>
      <p id={`${id}-summary`} className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        {summary}
      </p>
      <div aria-hidden="true" className="mt-4 h-60 text-slate-600 dark:text-slate-400">
        {children}
      </div>
      <div className="sr-only">{table}</div>
    </figure>
  );
}

/** Bars per bucket; with several series, stacked (logins by method). */
export function BarSeriesChart({
  id,
  title,
  summary,
  rows,
  series,
}: {
  id: string;
  title: string;
  summary: string;
  rows: ChartRow[];
  series: ChartSeries[];
}) {
  const data = rows.map((row) => ({ label: row.label, ...row.values }));
  const table = (
    <table>
      <caption>{title}</caption>
      <thead>
        <tr>
          <th scope="col">Period</th>
          {series.map((s) => (
            <th key={s.key} scope="col">
              {s.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.label}>
            <th scope="row">{row.label}</th>
            {series.map((s) => (
              <td key={s.key}>{row.values[s.key] ?? 0}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
  return (
    <ChartFigure id={id} title={title} summary={summary} table={table}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} accessibilityLayer={false} margin={{ top: 4, right: 8, bottom: 0, left: -16 }}>
          <CartesianGrid vertical={false} stroke="currentColor" strokeOpacity={0.15} />
          <XAxis dataKey="label" tick={TICK} tickLine={false} minTickGap={16} />
          <YAxis allowDecimals={false} tick={TICK} tickLine={false} axisLine={false} />
          <Tooltip cursor={{ fill: "currentColor", fillOpacity: 0.08 }} wrapperStyle={{ color: "#0f172a" }} />
          {series.length > 1 ? <Legend wrapperStyle={{ fontSize: 12 }} /> : null}
          {series.map((s) => (
            <Bar
              key={s.key}
              dataKey={s.key}
              name={s.label}
              fill={s.color}
              stackId={series.length > 1 ? "stack" : undefined}
              isAnimationActive={false}
            />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </ChartFigure>
  );
}

/** Passkey adoption: the share of active users with a passkey, as a donut. */
export function AdoptionChart({
  id,
  title,
  summary,
  activeUsers,
  withPasskey,
}: {
  id: string;
  title: string;
  summary: string;
  activeUsers: number;
  withPasskey: number;
}) {
  const percent = activeUsers === 0 ? 0 : Math.round((withPasskey / activeUsers) * 100);
  const data = [
    { name: "With a passkey", value: withPasskey, color: "#4f46e5" },
    { name: "Without a passkey", value: Math.max(0, activeUsers - withPasskey), color: "#94a3b8" },
  ];
  const table = (
    <table>
      <caption>{title}</caption>
      <tbody>
        <tr>
          <th scope="row">Active users</th>
          <td>{activeUsers}</td>
        </tr>
        <tr>
          <th scope="row">With a passkey</th>
          <td>{withPasskey}</td>
        </tr>
        <tr>
          <th scope="row">Adoption</th>
          <td>{percent}%</td>
        </tr>
      </tbody>
    </table>
  );
  return (
    <ChartFigure id={id} title={title} summary={summary} table={table}>
      <div className="relative h-full">
        <ResponsiveContainer width="100%" height="100%">
          <PieChart accessibilityLayer={false}>
            <Pie
              data={data}
              dataKey="value"
              nameKey="name"
              innerRadius="60%"
              outerRadius="90%"
              stroke="none"
              rootTabIndex={-1}
              isAnimationActive={false}
            >
              {data.map((slice) => (
                <Cell key={slice.name} fill={slice.color} />
              ))}
            </Pie>
            <Tooltip wrapperStyle={{ color: "#0f172a" }} />
          </PieChart>
        </ResponsiveContainer>
        <p className="pointer-events-none absolute inset-0 flex items-center justify-center text-2xl font-semibold text-slate-900 dark:text-white">
          {percent}%
        </p>
      </div>
    </ChartFigure>
  );
}
