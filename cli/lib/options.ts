// Numeric command-line options, checked with a message naming the option.
import { CliError } from './story-file.js';

export function numberOption(name: string, v: string, o: { min: number; max?: number; integer?: boolean }): number {
  const n = Number(v);
  if (o.integer) {
    if (!Number.isInteger(n) || n < o.min) throw new CliError(`--${name} must be an integer of at least ${o.min} (got '${v}')`);
    return n;
  }
  const max = o.max ?? Number.MAX_SAFE_INTEGER;
  if (!Number.isFinite(n) || n < o.min || n > max) throw new CliError(`--${name} must be a number from ${o.min} to ${max} (got '${v}')`);
  return n;
}
