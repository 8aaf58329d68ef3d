// The microphone rule (accounts spec §2): starting or continuing a story needs microphone permission outside the
// native wrapper (which records and transcribes itself). We ask for it once, stop the stream at once (the game
// screen opens its own), and say 'Need to accept microphone access' when it is refused or missing (§8).
import { isNativeWrapper } from '../native/bridge.js';

export const MICROPHONE_DENIED = 'Need to accept microphone access';

export async function ensureMicrophone(): Promise<boolean> {
  if (isNativeWrapper()) return true;
  try {
    if (!navigator.mediaDevices?.getUserMedia) return false;
    const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    for (const t of stream.getTracks()) t.stop();
    return true;
  } catch {
    return false;
  }
}
