// Where the validator's problems and the server's refusals land on a form: problems name JSON paths with indexes
// ("$.moments[3].goal"), refusals name change paths ("moments/ID/goal"); a field shows those at or below its own.
import type { Json } from '../../../../engine/authoring/apply.js';
import type { Problem } from '../../../../engine/story/validate.js';

/** The validator's path of an entity: "$.moments[3]" (null when the entity is not in the story). */
export function entityPath(doc: Json, collection: string, id: string): string | null {
  const list = doc[collection];
  if (!Array.isArray(list)) return null;
  const i = list.findIndex((e) => typeof e === 'object' && e !== null && (e as Json).id === id);
  return i < 0 ? null : `$.${collection}[${i}]`;
}

/** The problems at `path` or inside it ("$.moments[3].answers" holds "$.moments[3].answers[0].match"). */
export function problemsAt(problems: readonly Problem[], path: string | null): Problem[] {
  if (path === null) return [];
  return problems.filter((p) => p.path === path || p.path.startsWith(`${path}.`) || p.path.startsWith(`${path}[`));
}

/** The problems of an entity that no field of the form shows (on the entity itself, or a field not on the form). */
export function otherProblems(problems: readonly Problem[], entityPath: string | null, fieldKeys: readonly string[]): Problem[] {
  return problemsAt(problems, entityPath).filter((p) => !fieldKeys.some((k) => problemsAt([p], `${entityPath}.${k}`).length > 0));
}
