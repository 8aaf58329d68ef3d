import { describe, expect, it } from 'vitest';
import { decodeClientFrame } from '../../protocol/codec.js';
import { sampleUserInput } from '../../protocol/samples.js';
import { MAX_TRANSCRIPTION_CHARS } from '../../protocol/user-input.js';
import { TURN_ERRORS } from '../../protocol/turn-errors.js';
import { failedTurn } from '../api/socket.js';
import { initialModel, reducePlay } from './model.js';
import { playerErrorText } from './player-errors.js';
import { ANSWER_MAX_CHARS, answerCounterText } from './text.js';

/** The ERROR_MESSAGE the server sends for a frame its codec refuses: the codec's own message. */
function refusal(frame: string): string {
  const r = decodeClientFrame(new TextEncoder().encode(frame));
  if (r.ok) throw new Error('the codec took it');
  return r.error.message;
}

describe('what a player reads when a turn fails', () => {
  it('an answer over the limit: a plain sentence with the limit, never the schema message', () => {
    const long = JSON.stringify({ ...sampleUserInput(), transcription: 'a'.repeat(MAX_TRANSCRIPTION_CHARS + 1) });
    const message = refusal(`USER_INPUT\0${long}`);
    expect(message).toContain('does not match its schema');
    expect(playerErrorText(message)).toBe('Your answer is too long: 2,000 characters at most.');
  });

  it('any other refusal of the codec: a plain sentence', () => {
    for (const frame of ['USER_INPUT\0{', 'NOPE\0{}', `USER_INPUT\0${JSON.stringify({ input_id: 3 })}`]) {
      expect(playerErrorText(refusal(frame))).toBe('Your answer could not be sent. Please try again.');
    }
  });

  it("a socket closed mid-turn reads as the spec's 'Connection lost'; the server's own sentences show as they are", () => {
    expect(playerErrorText('connection closed (1006)')).toBe('Connection lost');
    for (const text of Object.values(TURN_ERRORS)) expect(playerErrorText(text)).toBe(text);
    expect(playerErrorText('Error processing end of game')).toBe('Error processing end of game');
  });
});

describe('the typed answer box', () => {
  it('takes what the server takes and counts down over the last tenth', () => {
    expect(ANSWER_MAX_CHARS).toBe(MAX_TRANSCRIPTION_CHARS);
    expect(answerCounterText(1799)).toBeNull();
    expect(answerCounterText(1800)).toBe('200 characters left');
    expect(answerCounterText(1999)).toBe('1 character left');
    expect(answerCounterText(2000)).toBe('2,000 characters at most');
  });

  it('a refused turn leaves no pending line in the captions and shows a plain sentence', () => {
    let m = initialModel('Story');
    m = reducePlay(m, { type: 'said', text: 'x'.repeat(2001) }).model;
    const message = refusal(`USER_INPUT\0${JSON.stringify({ ...sampleUserInput(), transcription: 'a'.repeat(2001) })}`);
    m = reducePlay(m, { type: 'turn', result: failedTurn('i1', message) }).model;
    expect(m.lines).toEqual([]);
    expect(m.error).toBe('Your answer is too long: 2,000 characters at most.');
  });
});
