// The Prometheus text exposition format (version 0.0.4), parsed and printed: `# HELP` / `# TYPE` and other comment
// lines are skipped; a sample is `name value [timestamp]` or `name{label="v",...} value [timestamp]`, label values
// escaping `\\`, `\"` and `\n`; values are floats, `NaN`, `+Inf` or `-Inf`. Pure: no I/O.

export type Sample = { name: string; labels: Record<string, string>; value: number; timestamp?: number };

export type ParseResult = { ok: true; samples: Sample[] } | { ok: false; error: string };

const NAME = /[a-zA-Z_:][a-zA-Z0-9_:]*/y;
const LABEL_NAME = /[a-zA-Z_][a-zA-Z0-9_]*/y;
const FLOAT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const INT = /^-?\d+$/;

class LineError extends Error {}

function parseValue(token: string): number {
  switch (token.toLowerCase()) {
    case 'nan':
      return NaN;
    case 'inf':
    case '+inf':
      return Infinity;
    case '-inf':
      return -Infinity;
    default:
      if (!FLOAT.test(token)) throw new LineError(`bad value "${token}"`);
      return Number(token);
  }
}

function parseLine(line: string): Sample {
  let i = 0;
  const blanks = (): void => {
    while (line[i] === ' ' || line[i] === '\t') i++;
  };
  const token = (re: RegExp, what: string): string => {
    re.lastIndex = i;
    const m = re.exec(line);
    if (!m) throw new LineError(`expected ${what} at column ${i + 1}`);
    i = re.lastIndex;
    return m[0];
  };
  const name = token(NAME, 'a metric name');
  const labels: [string, string][] = [];
  blanks();
  if (line[i] === '{') {
    i++;
    blanks();
    while (line[i] !== '}') {
      const label = token(LABEL_NAME, 'a label name');
      if (labels.some(([l]) => l === label)) throw new LineError(`label "${label}" repeated`);
      blanks();
      if (line[i] !== '=') throw new LineError(`expected "=" at column ${i + 1}`);
      i++;
      blanks();
      if (line[i] !== '"') throw new LineError(`expected a quoted label value at column ${i + 1}`);
      i++;
      let value = '';
      for (;;) {
        const c = line[i++];
        if (c === undefined) throw new LineError('unterminated label value');
        if (c === '"') break;
        if (c !== '\\') {
          value += c;
          continue;
        }
        const e = line[i++];
        if (e === '\\') value += '\\';
        else if (e === '"') value += '"';
        else if (e === 'n') value += '\n';
        else throw new LineError(`bad escape "\\${e ?? ''}" in a label value`);
      }
      labels.push([label, value]);
      blanks();
      if (line[i] === ',') {
        i++;
        blanks();
      } else if (line[i] !== '}') throw new LineError(`expected "," or "}" at column ${i + 1}`);
    }
    i++;
  } else if (i === name.length && i < line.length) throw new LineError(`expected "{" or a blank at column ${i + 1}`);
  const rest = line.slice(i).trim().split(/[ \t]+/);
  if (rest.length < 1 || rest.length > 2 || rest[0] === '') throw new LineError('expected a value and at most a timestamp');
  const sample: Sample = { name, labels: Object.fromEntries(labels), value: parseValue(rest[0] ?? '') };
  if (rest[1] !== undefined) {
    if (!INT.test(rest[1])) throw new LineError(`bad timestamp "${rest[1]}"`);
    sample.timestamp = Number(rest[1]);
  }
  return sample;
}

/** Parses a whole exposition; the first bad line makes it unparsable. */
export function parsePrometheus(text: string): ParseResult {
  const samples: Sample[] = [];
  const lines = text.split('\n');
  for (const [n, raw] of lines.entries()) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    try {
      samples.push(parseLine(trimmed));
    } catch (e) {
      if (!(e instanceof LineError)) throw e;
      return { ok: false, error: `line ${n + 1}: ${e.message}` };
    }
  }
  return { ok: true, samples };
}

function formatValue(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '-Inf';
  return Object.is(v, -0) ? '-0' : String(v);
}

const escapeLabel = (v: string): string => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

/** One sample line (no newline). */
export function formatSample(s: Sample): string {
  const labels = Object.entries(s.labels);
  const braces = labels.length ? `{${labels.map(([k, v]) => `${k}="${escapeLabel(v)}"`).join(',')}}` : '';
  return `${s.name}${braces} ${formatValue(s.value)}${s.timestamp === undefined ? '' : ` ${s.timestamp}`}`;
}

/** The first sample of this name whose labels include all of `labels`. */
export function findSample(samples: readonly Sample[], name: string, labels: Readonly<Record<string, string>> = {}): Sample | undefined {
  return samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => Object.hasOwn(s.labels, k) && s.labels[k] === v));
}
