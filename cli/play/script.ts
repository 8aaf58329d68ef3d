// Unattended turns for `looptale play`: a script file (one turn per line: words, `@audio <clip>`, `/end`), a story
// test plan (.testplan, played by cli/lib/remote-plan.ts), or --audio clips. Everything is read and checked before
// the first request, so a typo in a script is a usage error (exit 2), not a half-played run.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, extname, isAbsolute, resolve } from 'node:path';
import type { AudioFormat } from '../../engine/protocol/user-input.js';
import { parsePlan, type PlanStep } from '../../engine/story/testplan.js';
import { CliError } from '../lib/story-file.js';

export type AudioClip = { path: string; label: string; format: AudioFormat; bytes: Uint8Array };

export type ScriptTurn =
  | { readonly kind: 'say'; readonly text: string; readonly line: number }
  | { readonly kind: 'audio'; readonly clip: AudioClip; readonly line: number }
  /** End Current Run. */
  | { readonly kind: 'end'; readonly line: number };

export type Script =
  | { readonly kind: 'lines'; readonly turns: readonly ScriptTurn[] }
  | { readonly kind: 'testplan'; readonly steps: readonly PlanStep[]; readonly language: 'english' | 'french' | null };

const FORMATS: Record<string, AudioFormat> = { '.wav': 'wav', '.mp3': 'mp3', '.pcm': 'pcm16', '.pcm16': 'pcm16', '.raw': 'pcm16' };

/** The USER_INPUT audio_format for a clip, from its extension. */
export function audioFormatOf(path: string): AudioFormat | null {
  return FORMATS[extname(path).toLowerCase()] ?? null;
}

/** Headerless PCM is taken as the native wrapper's default: 16000 Hz, 16 bit, mono. */
export const PCM16_DEFAULTS = { sample_rate: 16000, channels: 1, bits_per_sample: 16 } as const;

export function readClip(path: string, where = ''): AudioClip {
  const format = audioFormatOf(path);
  if (!format) throw new CliError(`${where}${path}: unknown audio type '${extname(path) || '(none)'}' (use .wav, .mp3 or .pcm16)`);
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    throw new CliError(`${where}cannot read audio ${path}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
  }
  if (bytes.length === 0) throw new CliError(`${where}${path} is empty`);
  return { path, label: path.split(/[\\/]/).pop() ?? path, format, bytes: new Uint8Array(bytes) };
}

// A clip named in a script is looked for from the current directory first (how people type paths), then beside the
// script (so a script and its clips can travel together).
function clipPath(arg: string, scriptDir: string): string {
  if (isAbsolute(arg) || existsSync(arg)) return arg;
  const beside = resolve(scriptDir, arg);
  return existsSync(beside) ? beside : arg;
}

/** Parses a script of lines: blank lines and `#` comments are skipped. */
export function parseScript(text: string, file: string): ScriptTurn[] {
  const turns: ScriptTurn[] = [];
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    const n = i + 1;
    if (line === '' || line.startsWith('#')) continue;
    if (line.startsWith('@audio')) {
      const arg = line.slice('@audio'.length).trim();
      if (!arg) throw new CliError(`${file}:${n}: @audio needs a file (e.g. @audio clips/hello.wav)`);
      turns.push({ kind: 'audio', clip: readClip(clipPath(arg, dirname(file)), `${file}:${n}: `), line: n });
    } else if (line.startsWith('@')) {
      throw new CliError(`${file}:${n}: unknown directive '${line.split(/\s/)[0] ?? line}' (only @audio)`);
    } else if (line === '/end') {
      turns.push({ kind: 'end', line: n });
    } else {
      turns.push({ kind: 'say', text: line, line: n });
    }
  }
  return turns;
}

export function loadScript(file: string): Script {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new CliError(`Cannot read script ${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
  }
  if (file.endsWith('.testplan')) {
    const parsed = parsePlan(text);
    if (!parsed.ok) throw new CliError(`${file}: ${parsed.error}`);
    const lang = parsed.steps.find((s) => s.verb === 'language')?.arg.toLowerCase();
    return { kind: 'testplan', steps: parsed.steps, language: lang === 'french' || lang === 'english' ? lang : null };
  }
  return { kind: 'lines', turns: parseScript(text, file) };
}
