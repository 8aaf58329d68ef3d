// On a phone the portrait stands under the header (the moment title, and a battle's opponents or the Assemble
// banner) and the captions sit between the portrait and the hand, and every line must read whole without
// scrolling a box. When the captions need more height than is left under the portrait's face, the portrait shrinks
// (down to a small face) so they can begin higher; when even that is not enough, the portrait steps aside and the
// captions take the space from under the moment title. Wider screens put the captions beside the portrait: no change.
import { type RefObject, useLayoutEffect } from 'react';

/** The phone layout's breakpoint (in-game.css, visuals.css). */
const PHONE_QUERY = '(max-width: 600px)';
/** The smallest portrait still worth showing, in px of width. */
export const MIN_PORTRAIT_PX = 72;
/** The space between the header and the portrait, in px. */
const PORTRAIT_GAP_PX = 8;
/** The face ends at this share of the portrait's width below its top (a square picture centred in a 3:4 box). */
const FACE_END = 0.767;

/**
 * The portrait width (px) that leaves the captions `needed` px, given the height their box leaves them beside a
 * portrait of the usual width (`room`): the usual width when it fits, a narrower one down to MIN_PORTRAIT_PX (each px
 * of width less lifts the captions' top by FACE_END px), or 0 when no portrait leaves enough room (the
 * portrait steps aside).
 */
export function portraitWidthFor(room: number, needed: number, usual: number): number {
  if (needed <= room) return usual;
  const width = Math.floor(usual - (needed - room) / FACE_END);
  return width >= MIN_PORTRAIT_PX ? width : 0;
}

/** Keeps the portrait clear of the captions on phones, as the captions and the screen change size. */
export function useCaptionRoom(screen: RefObject<HTMLElement | null>, middle: RefObject<HTMLElement | null>): void {
  useLayoutEffect(() => {
    const root = screen.current;
    const box = middle.current;
    const captions = box?.firstElementChild;
    if (!root || !box || !(captions instanceof HTMLElement)) return;
    const phone = window.matchMedia(PHONE_QUERY);
    const top = root.querySelector<HTMLElement>('.in-game__top');
    // The notifications (a sibling of the in-game screen) take the moment title's place on phones (in-game.css).
    const notes = root.parentElement?.querySelector<HTMLElement>(':scope > .notifications') ?? null;
    const roomLeft = () => {
      const pad = getComputedStyle(box);
      return box.clientHeight - parseFloat(pad.paddingTop) - parseFloat(pad.paddingBottom);
    };
    // With no portrait the captions still short of room (a battle on a small phone): the player's own words give way
    // to the character's line (in-game.css), which must read whole.
    const tighten = () => {
      if (captions.scrollHeight > roomLeft() + 1) root.dataset.captionsTight = 'true';
    };
    const fit = () => {
      root.style.removeProperty('--portrait-w');
      delete root.dataset.captionsTight;
      if (!phone.matches || !top) {
        for (const p of ['--top-h', '--portrait-top', '--note-h']) root.style.removeProperty(p);
        return;
      }
      // The title's place grows to a notification taller than it, so the notification covers nothing under it.
      root.style.setProperty('--note-h', `${notes?.offsetHeight ?? 0}px`);
      // The portrait stands under the header (a battle's opponents, an Assemble banner), never behind it.
      const header = top.offsetHeight;
      root.style.setProperty('--top-h', `${header}px`);
      root.style.setProperty('--portrait-top', `${header + PORTRAIT_GAP_PX}px`);
      const portrait = root.querySelector('.visuals__character');
      // No character shown (a battle, a moment without one): no face to keep clear of, the captions take the room.
      if (!portrait) {
        root.style.setProperty('--portrait-w', '0px');
        tighten();
        return;
      }
      const usual = portrait.getBoundingClientRect().width;
      const width = portraitWidthFor(roomLeft(), captions.scrollHeight, usual);
      if (width !== usual) root.style.setProperty('--portrait-w', `${width}px`);
      if (width === 0) tighten();
    };
    // The box, the captions and each caption: a caption can grow while the captions' box is at its greatest height.
    const observer = new ResizeObserver(fit);
    const watch = () => {
      observer.disconnect();
      for (const el of [box, captions, ...captions.children, ...(top ? [top] : []), ...(notes ? [notes] : [])]) observer.observe(el);
      fit();
    };
    // New lines, and the character's picture coming or going.
    const mutations = new MutationObserver(watch);
    mutations.observe(root, { childList: true, subtree: true, characterData: true });
    watch();
    phone.addEventListener('change', fit);
    return () => {
      observer.disconnect();
      mutations.disconnect();
      phone.removeEventListener('change', fit);
    };
  }, [screen, middle]);
}
