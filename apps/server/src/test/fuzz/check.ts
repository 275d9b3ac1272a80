import { ERROR_STATUS } from '@herald/contract';
import type { JsonSchema, Operation } from './openapi.js';

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

/** The longest error sentence a client is expected to show (a 414 must not echo the path). */
const MAX_MESSAGE = 500;

const header = (a: Answer, name: string) => {
  const v = a.headers[name];
  return Array.isArray(v) ? v.join(', ') : String(v ?? '');
};

function parseJson(a: Answer): { ok: true; value: any } | { ok: false } {
  if (!/\bjson\b/.test(header(a, 'content-type'))) return { ok: false };
  try {
    return { ok: true, value: JSON.parse(a.body) };
  } catch {
    return { ok: false };
  }
}

const brief = (a: Answer) =>
  `${a.status} ${header(a, 'content-type') || '(no content type)'} ${JSON.stringify(a.body.slice(0, 160))}`;

/** Problems with an error answer: it must be the envelope `{status:'error', code, message}`. */
export function envelopeProblem(a: Answer): string | null {
  const json = parseJson(a);
  if (!json.ok) return `error answer is not JSON: ${brief(a)}`;
  const b = json.value;
  if (!b || typeof b !== 'object' || b.status !== 'error')
    return `error answer outside the envelope: ${brief(a)}`;
  if (typeof b.code !== 'string' || !(b.code in ERROR_STATUS))
    return `error answer with an unknown code: ${brief(a)}`;
  if (typeof b.message !== 'string' || b.message.trim() === '')
    return `error answer without a message: ${brief(a)}`;
  if (b.message.length > MAX_MESSAGE)
    return `error message of ${b.message.length} characters (it echoes the input?): ${brief(a)}`;
  return null;
}

const declaresSuccessEnvelope = (schema: JsonSchema | undefined) =>
  Array.isArray(schema?.properties?.status?.enum) && schema.properties.status.enum[0] === 'success';

/** What is wrong with an answer, or null: no 5xx, the envelope on 4xx, the documented shape on 2xx. */
export function answerProblem(
  op: Operation,
  a: Answer,
  { foreignFormat = false }: { foreignFormat?: boolean } = {},
): string | null {
  if (a.status >= 500) return `server error: ${brief(a)}`;
  // Another protocol's errors (OAuth JSON, HTML pages) are checked for status and time only.
  if (a.status >= 400 && foreignFormat) return null;
  // A HEAD answer has no body: its headers must still announce the JSON envelope.
  if (a.status >= 400 && op.method === 'HEAD')
    return /\bjson\b/.test(header(a, 'content-type'))
      ? null
      : `error answer is not JSON: ${brief(a)}`;
  if (a.status >= 400) return envelopeProblem(a);
  if (a.status >= 300)
    return header(a, 'location') ? null : `redirect without a Location: ${brief(a)}`;
  const documented = op.responses[String(a.status)] ?? op.responses['2XX'];
  if (a.status === 204 || op.method === 'HEAD') return null;
  if (!documented) {
    // Undocumented answers (HTML pages, files, event streams) only must not pretend to be errors.
    const json = parseJson(a);
    return json.ok && json.value?.status === 'error'
      ? `error envelope on a ${a.status}: ${brief(a)}`
      : null;
  }
  const json = parseJson(a);
  if (!json.ok) return `success answer is not JSON: ${brief(a)}`;
  if (declaresSuccessEnvelope(documented) && json.value?.status !== 'success')
    return `success answer outside the success envelope: ${brief(a)}`;
  return null;
}
