// The decision as the LLM must write it: a JSON Schema derived from the engine's Decision zod schema, made acceptable to
// OpenAI's strict structured outputs (every property required, optional ones nullable, no additional properties, no
// keywords strict mode refuses), and the parser that turns a reply back into a Decision (nulls dropped, then zod).
import { z } from 'zod';
import { Decision } from '../../engine/brain/decision.js';
import { checkJson, showJsonPath } from '../../engine/schema/json-guard.js';

/** Deeper than any decision (a handful of levels): a reply nested more is refused, not walked. */
const MAX_REPLY_DEPTH = 32;

/** What the model writes: the engine's memories (lines_used) and cache_hit are set by the server, never by the model. */
export const LlmDecision = Decision.omit({ lines_used: true, cache_hit: true });

type Json = Record<string, unknown>;

/** Keywords strict mode refuses or ignores; zod checks the bounds after parsing anyway. */
const DROPPED = new Set(['$schema', 'default', 'maxLength', 'minLength', 'maxItems', 'minItems', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'pattern', 'format']);

function isJson(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function strictify(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(strictify);
  if (!isJson(node)) return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) {
    if (DROPPED.has(k)) continue;
    if (k === 'oneOf') out.anyOf = strictify(v);
    else if (k === 'const') out.enum = [v];
    else out[k] = strictify(v);
  }
  // A union of constants of one type (Intensity: 1 | 2 | 3 | 4 | 5) becomes one enum.
  const any = out.anyOf;
  if (Array.isArray(any) && any.length > 0 && any.every((b) => isJson(b) && Array.isArray(b.enum) && Object.keys(b).every((x) => x === 'enum' || x === 'type'))) {
    const branches = any as Json[];
    const types = new Set(branches.map((b) => b.type));
    const values = branches.flatMap((b) => b.enum as unknown[]);
    delete out.anyOf;
    if (types.size === 1 && branches[0]?.type !== undefined) out.type = values.every((x) => Number.isInteger(x)) && branches[0].type === 'number' ? 'integer' : branches[0].type;
    out.enum = values;
  }
  if (out.type === 'object' && isJson(out.properties)) {
    const props = out.properties;
    const required = new Set(Array.isArray(out.required) ? (out.required as string[]) : []);
    for (const key of Object.keys(props)) {
      if (!required.has(key)) props[key] = { anyOf: [props[key], { type: 'null' }] };
    }
    out.required = Object.keys(props);
    out.additionalProperties = false;
  }
  return out;
}

let cached: Json | null = null;

/** The strict JSON Schema of the decision the model returns (response_format json_schema, strict: true). */
export function decisionJsonSchema(): Json {
  cached ??= strictify(z.toJSONSchema(LlmDecision, { io: 'input' })) as Json;
  return cached;
}

/** Drops null values (strict mode writes null for "absent"); the engine's schema wants them absent. */
export function dropNulls(v: unknown): unknown {
  if (Array.isArray(v)) return v.filter((x) => x !== null).map(dropNulls);
  if (!isJson(v)) return v;
  const out: Json = {};
  for (const [k, x] of Object.entries(v)) if (x !== null) out[k] = dropNulls(x);
  return out;
}

export type ParsedReply =
  | { ok: true; decision: Decision }
  | { ok: false; reason: 'invalid_json' | 'schema_mismatch'; detail: string };

/** The model's text as a Decision: JSON (a fenced ```json block is accepted), nulls dropped, checked by zod. */
export function parseDecision(text: string): ParsedReply {
  const body = text.trim().replace(/^```(?:json)?\s*/i, '').replace(/\s*```$/, '');
  let raw: unknown;
  try {
    raw = JSON.parse(body);
  } catch (e) {
    return { ok: false, reason: 'invalid_json', detail: (e as Error).message };
  }
  // Valid JSON a store cannot hold (a "\u0000" or a lone surrogate escape) fails like bad JSON.
  const bad = checkJson(raw, { maxDepth: MAX_REPLY_DEPTH });
  if (bad) return { ok: false, reason: 'invalid_json', detail: `${showJsonPath(bad.path)}: ${bad.message}` };
  const r = LlmDecision.safeParse(dropNulls(raw));
  if (!r.success) {
    const issue = r.error.issues[0];
    return { ok: false, reason: 'schema_mismatch', detail: issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'does not fit the decision schema' };
  }
  return { ok: true, decision: Decision.parse({ ...r.data, cache_hit: false, lines_used: {} }) };
}
