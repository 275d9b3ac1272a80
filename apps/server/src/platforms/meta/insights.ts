import type { GraphClient } from './graph-client.js';

/** One metric of a Graph `/insights` answer (Pages, Page posts, Instagram media and accounts). */
interface GraphInsight {
  name: string;
  period?: string;
  values?: Array<{ value?: unknown; end_time?: string }>;
  total_value?: { value?: unknown };
}

/** A value as Graph gives it: a number, or an object of numbers (a breakdown) that is summed. */
function numberOf(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (value && typeof value === 'object') {
    const parts = Object.values(value as Record<string, unknown>).filter(
      (v): v is number => typeof v === 'number',
    );
    return parts.length ? parts.reduce((a, b) => a + b, 0) : undefined;
  }
  return undefined;
}

/**
 * `GET /{id}/insights?metric=…`: each metric's latest value by name. A metric Graph left out (no
 * data yet, an empty set instead of 0) stays absent.
 */
export async function readGraphInsights(
  graph: GraphClient,
  id: string,
  token: string,
  metrics: readonly string[],
  params: Record<string, string> = {},
): Promise<Record<string, number>> {
  const answer = await graph.get<{ data?: GraphInsight[] }>(`${id}/insights`, token, {
    metric: metrics.join(','),
    ...params,
  });
  const out: Record<string, number> = {};
  for (const insight of answer.data ?? []) {
    const raw =
      insight.total_value !== undefined
        ? insight.total_value.value
        : insight.values?.[insight.values.length - 1]?.value;
    const value = numberOf(raw);
    if (value !== undefined) out[insight.name] = value;
  }
  return out;
}
