// The passwords people pick most often, which attackers try first: the 49,233-entry list (ranked by frequency in
// leaked password sets) that @zxcvbn-ts/language-common ships and keeps. Only the list is used, not zxcvbn's scoring:
// a sign-up form that refuses "password1" and explains why is the point, not a strength meter.
import { dictionary } from '@zxcvbn-ts/language-common';

let common: Set<string> | null = null;

function list(): Set<string> {
  common ??= new Set((dictionary['passwords-common'] as readonly string[]).map((p) => p.normalize('NFKC').toLowerCase()));
  return common;
}

/** How many passwords the list holds. */
export function commonPasswordCount(): number {
  return list().size;
}

/** True when the password, whatever its case, is on the list. */
export function isCommonPassword(password: string): boolean {
  return list().has(password.normalize('NFKC').toLowerCase());
}
