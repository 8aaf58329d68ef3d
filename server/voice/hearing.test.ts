import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { initialState } from '../../engine/run/state.js';
import { Story } from '../../engine/story/format.js';
import { hearingStage, transcriberHearing } from './hearing.js';
import type { TranscribeResult, Transcriber } from './transcriber.js';

const story = Story.parse(JSON.parse(readFileSync('fixtures/stories/lantern-keeper/story.json', 'utf8')));
const state = initialState('u', story.id, 1);
const audio = { bytes: new Uint8Array(4), format: 'wav' as const };

const answering = (r: TranscribeResult): Transcriber => ({ name: 'fake', transcribe: () => Promise.resolve(r) });

describe('transcriberHearing: a miss is told by the recogniser flag, never by its text', () => {
  it('a recogniser that heard nothing usable is a miss, whatever language its message is in', async () => {
    const l = transcriberHearing(answering({ ok: false, message: "Pardon, je n'ai pas compris.", notCaught: true }), { gate: false });
    expect(await l.hear({ audio, stage: hearingStage(story, state, 'french') })).toEqual({ ok: false, miss: true, reason: 'not_heard', heard: null, recogniser: 'fake' });
  });

  it('a failure is reported with its code, whatever its message says', async () => {
    const l = transcriberHearing(answering({ ok: false, message: 'This input was already processed.' }), { gate: false });
    expect(await l.hear({ audio, stage: hearingStage(story, state, 'english') })).toEqual({ ok: false, miss: false, code: 'stt/failed', message: 'This input was already processed.' });
  });
});
