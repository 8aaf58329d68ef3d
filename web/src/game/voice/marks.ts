// Performance marks of the voice loop, for benches and tests reading `performance.getEntriesByName(...)`:
// the end of the player's speech (the silence stop or STOP), the USER_INPUT with the audio leaving, and the first
// reply audio starting to play after it. The web bench's "speech end -> first reply audio" is the distance between
// the last SPEECH_END and the FIRST_AUDIO_PLAY that follows it.
export const MARK = {
  /** First non-silent block of a recording (the player started talking). */
  SPEECH_START: 'looptale:speech-start',
  /** The recording stopped: > 3000 ms of silence (detail.by = 'silence'), STOP (by = 'click') or the native wrapper. */
  SPEECH_END: 'looptale:speech-end',
  /** The USER_INPUT with the audio was handed to the socket (detail.bytes, detail.encodeMs). */
  AUDIO_SENT: 'looptale:audio-sent',
  /** The first AUDIO_ANSWER after the last speech end started playing. */
  FIRST_AUDIO_PLAY: 'looptale:first-audio-play',
} as const;

export function mark(name: string, detail?: Record<string, unknown>): void {
  try {
    performance.mark(name, detail ? { detail } : undefined);
  } catch {
    // marks are for measurements only
  }
}
