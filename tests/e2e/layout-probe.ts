// Measures what a player can read and tap on the page as it is drawn: every visible control at least 44 x 44 px,
// every visible letter at least 12 px tall (its font size times the scale it is drawn at), no control or text hidden
// under something that is not a full-screen overlay, and no caption or notification over the character's face (the
// upper 60% of the picture as drawn: the stories' portraits centre the head), and no caption cut short: each reads
// whole without scrolling a box inside the screen (no scroll bar, no ellipsis, no hidden overflow), no notification over
// a card's picture (the faces of the hand and the opponents), and no card of a fan off the screen.
// Used by the phone layout test; the rules are the issue's goal for phones (360x640 and 390x844).
import type { Page } from 'playwright-core';

export const MIN_TAP_PX = 44;
export const MIN_TEXT_PX = 12;

export type LayoutViolation = { rule: 'tap' | 'text' | 'covered' | 'face' | 'overflow' | 'cut' | 'offscreen'; what: string; detail: string };

/** Runs in the page: returns every violation of the rules above, each naming its element. */
function probe(limits: { tap: number; text: number }): LayoutViolation[] {
  const out: LayoutViolation[] = [];
  const vw = document.documentElement.clientWidth;
  const vh = document.documentElement.clientHeight;
  const name = (el: Element): string => {
    const id = el.getAttribute('data-testid');
    const cls = typeof el.className === 'string' ? el.className.trim().split(/\s+/)[0] : '';
    const text = (el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
    return `${el.tagName.toLowerCase()}${id ? `[${id}]` : ''}${cls ? `.${cls}` : ''}${text ? ` "${text}"` : ''}`;
  };
  const shown = (el: Element): boolean => {
    for (let e: Element | null = el; e; e = e.parentElement) {
      const s = getComputedStyle(e);
      if (s.display === 'none' || s.visibility === 'hidden' || Number(s.opacity) < 0.05) return false;
    }
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  const inView = (r: DOMRect) => r.bottom > 0 && r.right > 0 && r.top < vh && r.left < vw;
  // What covers a point by design: a full-screen layer (a game overlay, the menu, a modal) the element is not part of.
  const fullLayer = (el: Element | null) => el?.closest('.game-overlay, [data-testid="game-menu"], .modal-root, .game-modal__backdrop') ?? null;
  const hitsSelf = (el: Element, x: number, y: number): 'self' | 'layer' | Element => {
    const hit = document.elementFromPoint(x, y);
    if (!hit || hit === el || el.contains(hit) || hit.contains(el)) return 'self';
    const layer = fullLayer(hit);
    if (layer && !layer.contains(el) && layer !== fullLayer(el)) return 'layer';
    // The same widget (a label over its input, a card's parts) is not a cover.
    if (hit.closest('label')?.contains(el)) return 'self';
    // The cards of one fan overlap by design (game spec §9) and open on hover or focus: a card under its neighbour is
    // not a cover. A card under another fan's card is.
    const row = el.closest('.card-fan__row');
    if (row && hit.closest('.card-fan__row') === row) return 'self';
    return hit;
  };

  const controls = [...document.querySelectorAll('button, a[href], input:not([type="hidden"]), select, textarea, [role="button"], [tabindex="0"]')]
    .filter((el) => shown(el));
  for (const el of controls) {
    // A radio or checkbox is tapped through its label: the label is the target measured.
    const target = el.matches('input[type="radio"], input[type="checkbox"]') ? el.closest('label') ?? el : el;
    const r = target.getBoundingClientRect();
    if (!inView(r)) continue;
    // A link inside running text is exempt (WCAG 2.5.8's inline exception).
    if (el.tagName === 'A' && getComputedStyle(el).display === 'inline' && el.parentElement?.tagName === 'P') continue;
    if (r.width <= 1 || r.height <= 1) continue;
    const x = Math.min(Math.max(r.left + r.width / 2, 1), vw - 1);
    const y = Math.min(Math.max(r.top + r.height / 2, 1), vh - 1);
    const hit = hitsSelf(el, x, y);
    // Behind a full-screen layer (the menu, an overlay) a control is out of play until the layer goes.
    if (hit === 'layer') continue;
    if (hit instanceof Element) out.push({ rule: 'covered', what: name(el), detail: `under ${name(hit)}` });
    if (r.width < limits.tap - 0.5 || r.height < limits.tap - 0.5) {
      out.push({ rule: 'tap', what: name(target), detail: `${r.width.toFixed(0)}x${r.height.toFixed(0)} px` });
    }
  }

  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const seen = new Set<Element>();
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || seen.has(el) || !(n.textContent ?? '').trim()) continue;
    if (el.closest('script, style, noscript, .visually-hidden, title')) continue;
    if (!shown(el)) continue;
    const range = document.createRange();
    range.selectNodeContents(n);
    const rects = [...range.getClientRects()].filter((r) => r.width > 0.5 && r.height > 0.5 && inView(r));
    if (rects.length === 0) continue;
    seen.add(el);
    const first = rects[0];
    if (first) {
      const x = Math.min(Math.max(first.left + Math.min(first.width, 12) / 2, 1), vw - 1);
      const y = Math.min(Math.max(first.top + first.height / 2, 1), vh - 1);
      const hit = hitsSelf(el, x, y);
      if (hit === 'layer') continue;
      if (hit instanceof Element) out.push({ rule: 'covered', what: name(el), detail: `under ${name(hit)}` });
    }
    // The scale the text is drawn at: the product of its ancestors' transforms (a card fan's scale, an overlay's
    // entrance), each the length of its matrix's first column.
    let scale = 1;
    for (let e: Element | null = el; e; e = e.parentElement) {
      const t = getComputedStyle(e).transform;
      if (t && t !== 'none') {
        const m = new DOMMatrix(t);
        scale *= Math.hypot(m.a, m.b);
      }
    }
    const px = parseFloat(getComputedStyle(el).fontSize) * scale;
    if (px < limits.text - 0.05) out.push({ rule: 'text', what: name(el), detail: `${px.toFixed(1)} px` });
    // Text that runs off the screen sideways cannot be read (text its box clips, with an ellipsis, is drawn only inside
    // the box).
    const clips = ['hidden', 'clip'].includes(getComputedStyle(el).overflowX);
    const box = el.getBoundingClientRect();
    for (const t of rects) {
      const r = clips ? { left: Math.max(t.left, box.left), right: Math.min(t.right, box.right) } : t;
      if (r.right > vw + 1 || r.left < -1) out.push({ rule: 'overflow', what: name(el), detail: `text at x ${r.left.toFixed(0)}..${r.right.toFixed(0)} of ${vw}` });
    }
  }

  // The captions and everything in them show all their content: a box that scrolls or clips (its content taller or
  // wider than the box) hides part of a line the player must read.
  for (const el of document.querySelectorAll('.captions, .captions *')) {
    if (!shown(el)) continue;
    const s = getComputedStyle(el);
    const tall = el.scrollHeight - el.clientHeight > 1 && s.overflowY !== 'visible';
    const wide = el.scrollWidth - el.clientWidth > 1 && s.overflowX !== 'visible';
    if (tall || wide) out.push({ rule: 'cut', what: name(el), detail: `shows ${el.clientWidth}x${el.clientHeight} px of ${el.scrollWidth}x${el.scrollHeight}` });
  }

  // A card of a fan runs off the screen: the player cannot see or tap all of it.
  for (const el of document.querySelectorAll('.game-card')) {
    if (!shown(el)) continue;
    const r = el.getBoundingClientRect();
    if (r.left < -1 || r.right > vw + 1 || r.top < -1 || r.bottom > vh + 1) {
      out.push({ rule: 'offscreen', what: name(el), detail: `at x ${r.left.toFixed(0)}..${r.right.toFixed(0)}, y ${r.top.toFixed(0)}..${r.bottom.toFixed(0)} of ${vw}x${vh}` });
    }
  }

  // A notification over a card's picture (the hand's and the opponents' faces).
  for (const note of document.querySelectorAll('.notification')) {
    if (!shown(note)) continue;
    const n = note.getBoundingClientRect();
    for (const art of document.querySelectorAll('.game-card__art')) {
      if (!shown(art)) continue;
      const r = art.getBoundingClientRect();
      const dx = Math.min(r.right, n.right) - Math.max(r.left, n.left);
      const dy = Math.min(r.bottom, n.bottom) - Math.max(r.top, n.top);
      const card = art.closest('.game-card') ?? art;
      if (dx > 4 && dy > 4) out.push({ rule: 'face', what: name(note), detail: `over the picture of ${name(card)} by ${dx.toFixed(0)}x${dy.toFixed(0)} px` });
    }
  }

  // The face: the upper 60% of the character's picture as drawn (object-fit: contain centres it in its box).
  const img = document.querySelector<HTMLImageElement>('.visuals__character img.is-shown');
  if (img && shown(img) && img.naturalWidth > 0) {
    const b = img.getBoundingClientRect();
    const k = Math.min(b.width / img.naturalWidth, b.height / img.naturalHeight);
    const w = img.naturalWidth * k;
    const h = img.naturalHeight * k;
    const left = b.left + (b.width - w) / 2;
    const top = b.top + (b.height - h) / 2;
    const face = { left: left + w * 0.2, right: left + w * 0.8, top, bottom: top + h * 0.6 };
    for (const el of document.querySelectorAll('.caption, .notification, .control-bar, .card-fan__row, .in-game__top > *')) {
      if (!shown(el)) continue;
      const r = el.getBoundingClientRect();
      if (hitsSelf(el, Math.min(Math.max(r.left + r.width / 2, 1), vw - 1), Math.min(Math.max(r.top + r.height / 2, 1), vh - 1)) === 'layer') continue;
      const dx = Math.min(r.right, face.right) - Math.max(r.left, face.left);
      const dy = Math.min(r.bottom, face.bottom) - Math.max(r.top, face.top);
      if (dx > 8 && dy > 8) out.push({ rule: 'face', what: name(el), detail: `over the face by ${dx.toFixed(0)}x${dy.toFixed(0)} px` });
    }
  }
  return out;
}

/** The page's violations as it is now. */
export async function layoutViolations(page: Page): Promise<LayoutViolation[]> {
  // Sent as source with a stand-in for the name-keeping helper a TypeScript transform may wrap inner functions in.
  const source = `((__name) => (${probe.toString()}))((f) => f)(${JSON.stringify({ tap: MIN_TAP_PX, text: MIN_TEXT_PX })})`;
  return page.evaluate<LayoutViolation[]>(source);
}

/** The violations as lines, one per element ('' when none). */
export function describeLayout(where: string, violations: readonly LayoutViolation[]): string {
  return violations.map((v) => `${where}: ${v.rule}: ${v.what}: ${v.detail}`).join('\n');
}
