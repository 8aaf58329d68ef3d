// How the app knows it runs inside the native wrapper (the phone app that records and transcribes on its own):
//
//   1. the wrapper injects `window.LooptaleNative` before the page's scripts run (the bridge object of
//      docs/native-bridge.md: `postMessage(json)` towards the wrapper; the wrapper calls `window.looptaleNativeEvent(json)`), or
//   2. the page was opened with `?native=1` (a wrapper that cannot inject early), remembered for the tab's session.
//
// Either one makes `isNativeWrapper()` true for the whole visit. What depends on it: password sign-in is the default
// (not magic links), the reset alert adds the in-app sentence, and the launch screen skips the microphone permission.

export interface LooptaleNativeBridge {
  /** A JSON message from the page to the wrapper (game states idle / processing / game-speaking, START_RECORDING...). */
  postMessage(message: string): void;
  /** The wrapper's app version, for logs. */
  readonly version?: string;
}

declare global {
  interface Window {
    LooptaleNative?: LooptaleNativeBridge;
  }
}

const SESSION_KEY = 'looptale:native';

function fromQuery(): boolean {
  try {
    const flag = new URLSearchParams(window.location.search).get('native');
    if (flag === '1' || flag === 'true') {
      window.sessionStorage.setItem(SESSION_KEY, '1');
      return true;
    }
    return window.sessionStorage.getItem(SESSION_KEY) === '1';
  } catch {
    return false; // storage blocked: the query flag alone decides
  }
}

let cached: boolean | null = null;

export function isNativeWrapper(): boolean {
  cached ??= typeof window.LooptaleNative?.postMessage === 'function' || fromQuery();
  return cached;
}

/** The bridge, when the wrapper injected one (null with only ?native=1). */
export function nativeBridge(): LooptaleNativeBridge | null {
  return typeof window.LooptaleNative?.postMessage === 'function' ? window.LooptaleNative : null;
}
