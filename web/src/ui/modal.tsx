// The app's dialog: a labelled modal (role=dialog, aria-modal) in a portal, focus kept inside and given back on
// close, Escape and a backdrop click close it, the page behind does not scroll. `origin` is the rect of what opened
// it (a story card): the dialog grows out of it (accounts spec §2: the login modal "animates from the position of
// the clicked card"). With reduced motion it only fades. The animation is the Web Animations API (element.animate):
// the catalogue, where this modal opens, does not carry an animation library for one transition.
import { type ReactNode, useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { CloseIcon } from './icons.js';
import { useReducedMotion } from './settings.js';
import './modal.css';

export type ModalProps = {
  open: boolean;
  onClose: () => void;
  /** The dialog's accessible name, shown as its heading unless `hideTitle`. */
  title: ReactNode;
  hideTitle?: boolean;
  children: ReactNode;
  /** Maximum width in px (the sign-in modal: 450). */
  maxWidth?: number;
  origin?: DOMRect | null;
  /** Close button, Escape and backdrop close the dialog (false for a step that must be answered). */
  dismissable?: boolean;
  className?: string;
  /** Full-bleed content (a hero image at the top): no padding around the body. */
  flush?: boolean;
  testId?: string;
};

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

let openCount = 0;

function lockScroll(): () => void {
  openCount++;
  const body = document.body;
  const previous = body.style.overflow;
  body.style.overflow = 'hidden';
  return () => {
    openCount--;
    if (openCount === 0) body.style.overflow = previous;
  };
}

export function Modal({ open, onClose, title, hideTitle = false, children, maxWidth = 560, origin = null, dismissable = true, className, flush = false, testId }: ModalProps) {
  const reduced = useReducedMotion();
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const returnTo = useRef<HTMLElement | null>(null);

  useEffect(() => {
    if (!open) return;
    returnTo.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const unlock = lockScroll();
    // The first field or button, else the panel itself.
    const first = panel.current?.querySelector<HTMLElement>('[data-autofocus]') ?? panel.current?.querySelector<HTMLElement>(FOCUSABLE);
    (first ?? panel.current)?.focus({ preventScroll: true });
    return () => {
      unlock();
      returnTo.current?.focus?.({ preventScroll: true });
    };
  }, [open]);

  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.key === 'Escape' && dismissable) {
      e.stopPropagation();
      onClose();
      return;
    }
    if (e.key !== 'Tab' || !panel.current) return;
    const items = [...panel.current.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.offsetParent !== null);
    const firstItem = items[0];
    const lastItem = items.at(-1);
    if (!firstItem || !lastItem) return;
    if (e.shiftKey && document.activeElement === firstItem) {
      e.preventDefault();
      lastItem.focus();
    } else if (!e.shiftKey && document.activeElement === lastItem) {
      e.preventDefault();
      firstItem.focus();
    }
  };

  // Mounted while open and during the closing animation.
  const [shown, setShown] = useState(open);
  if (open && !shown) setShown(true);
  if (!open && shown && reduced) setShown(false);
  const root = useRef<HTMLDivElement>(null);

  // Opening: the panel grows from the opener's rect (its centre and width), the backdrop fades in.
  useLayoutEffect(() => {
    if (!open || !panel.current || !root.current) return;
    const ms = reduced ? 0 : 300;
    const p = panel.current.getBoundingClientRect();
    const from = origin && !reduced
      ? `translate(${origin.left + origin.width / 2 - (p.left + p.width / 2)}px, ${origin.top + origin.height / 2 - (p.top + p.height / 2)}px) scale(${Math.max(0.2, Math.min(1, origin.width / p.width))})`
      : `translateY(${reduced ? 0 : 16}px) scale(${reduced ? 1 : 0.97})`;
    const a = panel.current.animate([{ opacity: 0, transform: from }, { opacity: 1, transform: 'none' }], { duration: ms, easing: 'cubic-bezier(0.2, 0.8, 0.2, 1)' });
    const b = root.current.animate([{ opacity: 0 }, { opacity: 1 }], { duration: reduced ? 0 : 200 });
    return () => {
      a.cancel();
      b.cancel();
    };
  }, [open, origin, reduced]);

  // Closing: a short fade, then unmounted.
  useEffect(() => {
    const el = root.current;
    if (open || !shown || !el) return;
    const a = el.animate([{ opacity: 1 }, { opacity: 0 }], { duration: 180, fill: 'forwards' });
    a.onfinish = () => setShown(false);
    return () => a.cancel();
  }, [open, shown, reduced]);

  if (!shown) return null;
  return createPortal(
    <div ref={root} className="modal-root" onKeyDown={onKeyDown} data-testid={testId} data-state={open ? 'open' : 'closing'} inert={!open} aria-hidden={!open || undefined}>
      <div className="modal-backdrop" aria-hidden="true" onClick={dismissable && open ? onClose : undefined} />
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        className={['modal-panel', flush ? 'modal-panel--flush' : '', className ?? ''].filter(Boolean).join(' ')}
        style={{ maxWidth }}
      >
        <h2 id={titleId} className={hideTitle ? 'visually-hidden' : 'modal-title'}>{title}</h2>
        {dismissable ? (
          <button type="button" className="modal-close" onClick={onClose} aria-label="Close">
            <CloseIcon />
          </button>
        ) : null}
        {children}
      </div>
    </div>,
    document.body,
  );
}
