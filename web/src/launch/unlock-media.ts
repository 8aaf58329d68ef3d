// START on the launch screen "unlocks audio and video" (accounts spec §2): browsers let a page play sound only after
// a user gesture. Inside the click we resume one shared AudioContext and play a silent sample through it, and play a
// muted, empty <video>; afterwards the game screen can start sound without another click. `mediaUnlocked()` says
// whether it happened in this page.
let context: AudioContext | null = null;
let unlocked = false;

/** The page's AudioContext (created on first use, resumed by START). */
export function sharedAudioContext(): AudioContext | null {
  if (context) return context;
  const Ctor = window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
  if (!Ctor) return null;
  context = new Ctor();
  return context;
}

/** Call inside a click handler. Never throws: a page that cannot play sound still starts. */
export function unlockMedia(): void {
  try {
    const ctx = sharedAudioContext();
    if (ctx) {
      void ctx.resume().catch(() => undefined);
      const buffer = ctx.createBuffer(1, 1, 22050);
      const source = ctx.createBufferSource();
      source.buffer = buffer;
      source.connect(ctx.destination);
      source.start(0);
    }
    const video = document.createElement('video');
    video.muted = true;
    video.playsInline = true;
    void video.play().catch(() => undefined);
  } catch {
    // no audio device: nothing to unlock
  }
  unlocked = true;
}

export function mediaUnlocked(): boolean {
  return unlocked;
}
