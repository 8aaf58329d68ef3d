// The moment types, one module each, registered once: every part of the product finds a type's rules, traits,
// sentences, checks, drawing and editor fields here. Adding a type is one file in engine/moments/ and one line below
// (and its name in MOMENT_TYPES, which the story format and the database's CHECK list are checked against).
import { z } from 'zod';
import { MOMENT_TYPES, type MomentType } from '../schema/enums.js';
import { assemble } from './assemble.js';
import { battle } from './battle.js';
import { crossroad } from './crossroad.js';
import { deadEnd } from './dead-end.js';
import { epilogue } from './epilogue.js';
import { equip } from './equip.js';
import { learn } from './learn.js';
import { monologue } from './monologue.js';
import { reward } from './reward.js';
import { teamwork } from './teamwork.js';
import { test } from './test.js';
import type { MomentModule, Stage, StageInput } from './types.js';
import { upgrade } from './upgrade.js';

/** Every moment type's module, keyed by type, in the order of MOMENT_TYPES (each with its own schema's type). */
const BY_TYPE = {
  Monologue: monologue,
  Learn: learn,
  Test: test,
  Crossroad: crossroad,
  Teamwork: teamwork,
  Reward: reward,
  Battle: battle,
  Equip: equip,
  Epilogue: epilogue,
  Upgrade: upgrade,
  Assemble: assemble,
  'Dead End': deadEnd,
} as const satisfies Record<MomentType, MomentModule>;

/** Every moment type's module, keyed by type, in the order of MOMENT_TYPES. */
export const MOMENTS: Readonly<Record<MomentType, MomentModule>> = BY_TYPE;

type Member = (typeof BY_TYPE)[MomentType]['schema'];

/** The story format's moment: each type's schema member, told apart by `type` (engine/story/format.ts names it). */
export const MOMENT_UNION = z.discriminatedUnion('type', MOMENT_TYPES.map((t) => BY_TYPE[t].schema) as [Member, ...Member[]]);

/** The modules in the order of MOMENT_TYPES. */
export const MOMENT_MODULES: readonly MomentModule[] = MOMENT_TYPES.map((t) => MOMENTS[t]);

/** The module of a moment type. */
export function momentModule(type: MomentType): MomentModule {
  return MOMENTS[type];
}

/** The traits of a moment type. */
export const traitsOf = (type: MomentType): MomentModule['traits'] => MOMENTS[type].traits;

/** The stage of a started moment of this type. */
export function stageOfMoment(type: MomentType, pm: StageInput): Stage {
  return MOMENTS[type].stageOf?.(pm) ?? '';
}
