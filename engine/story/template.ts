// Fills the {name} placeholders of the engine's and the brain's fixed texts. Exactly what replacing each variable in
// turn (`s.replaceAll(`{${k}}`, String(v))` for each k of vars) gives, in one pass over a template parsed once.
const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;
const SPECIAL = /[{}$]/;

/** Literal pieces and the placeholder names between them; null when the template has other braces. */
type Parsed = { pieces: string[]; names: string[] } | null;

const parsed = new Map<string, Parsed>();

function parse(template: string): Parsed {
  const pieces: string[] = [];
  const names: string[] = [];
  let at = 0;
  for (const m of template.matchAll(PLACEHOLDER)) {
    pieces.push(template.slice(at, m.index));
    names.push(m[1] as string);
    at = m.index + m[0].length;
  }
  pieces.push(template.slice(at));
  // Another brace in the text could join a filled value into a new placeholder: use the replacements in turn.
  return pieces.some((p) => p.includes('{') || p.includes('}')) ? null : { pieces, names };
}

function inTurn(template: string, vars: Readonly<Record<string, string | number>>): string {
  let s = template;
  // for...in visits own string keys in Object.entries order (vars are plain literals).
  for (const k in vars) s = s.replaceAll(`{${k}}`, String(vars[k]));
  return s;
}

export function fillTemplate(template: string, vars: Readonly<Record<string, string | number>>): string {
  let p = parsed.get(template);
  if (p === undefined) {
    p = parse(template);
    if (parsed.size >= 1000) parsed.clear();
    parsed.set(template, p);
  }
  if (p === null) return inTurn(template, vars);
  // Joined with + (an array and join cost more than the replacements did).
  let out = p.pieces[0] as string;
  for (let i = 0; i < p.names.length; i++) {
    const name = p.names[i] as string;
    let v: string;
    if (Object.hasOwn(vars, name)) {
      v = String(vars[name]);
      // A value with a brace could itself hold a placeholder that a later replacement fills; replaceAll reads `$`
      // patterns in a replacement ($&, $$...).
      if (SPECIAL.test(v)) return inTurn(template, vars);
    } else v = `{${name}}`;
    out = out + v + (p.pieces[i + 1] as string);
  }
  return out;
}
