// Inline SVG icons (no icon font, no emoji: they render the same on every machine). Decorative unless given a title.
import type { SVGProps } from 'react';

type IconProps = SVGProps<SVGSVGElement>;

const base = (p: IconProps): IconProps => ({ width: 24, height: 24, viewBox: '0 0 24 24', fill: 'none', stroke: 'currentColor', strokeWidth: 2, strokeLinecap: 'round', strokeLinejoin: 'round', 'aria-hidden': true, focusable: false, ...p });

/** The product's mark (accounts spec §2): a chat bubble with a plus sign, and a circle. */
export function LogoMark(p: IconProps) {
  return (
    <svg {...base({ viewBox: '0 0 40 40', stroke: 'none', ...p })}>
      <path d="M7 8h22a5 5 0 0 1 5 5v11a5 5 0 0 1-5 5H18l-7 6v-6H7a5 5 0 0 1-5-5V13a5 5 0 0 1 5-5z" fill="var(--color-accent)" />
      <path d="M13.5 18.5h9M18 14v9" stroke="var(--color-on-accent)" strokeWidth="2.6" strokeLinecap="round" />
      <circle cx="31.5" cy="8.5" r="5" fill="var(--color-bg)" stroke="var(--color-accent)" strokeWidth="2.4" />
    </svg>
  );
}

export function CloseIcon(p: IconProps) {
  return <svg {...base(p)}><path d="M6 6l12 12M18 6L6 18" /></svg>;
}

export function TicketIcon(p: IconProps) {
  return (
    <svg {...base(p)}>
      <path d="M3 8a2 2 0 0 0 2-2h14a2 2 0 0 0 2 2v2a2 2 0 0 0 0 4v2a2 2 0 0 0-2 2H5a2 2 0 0 0-2-2v-2a2 2 0 0 0 0-4z" />
      <path d="M14 6v12" strokeDasharray="2 2" />
    </svg>
  );
}

export function UserIcon(p: IconProps) {
  return <svg {...base(p)}><circle cx="12" cy="8" r="4" /><path d="M4 21a8 8 0 0 1 16 0" /></svg>;
}

export function ChevronDownIcon(p: IconProps) {
  return <svg {...base(p)}><path d="M6 9l6 6 6-6" /></svg>;
}

export function MailIcon(p: IconProps) {
  return <svg {...base(p)}><rect x="3" y="5" width="18" height="14" rx="2" /><path d="M3 7l9 6 9-6" /></svg>;
}

export function PlayIcon(p: IconProps) {
  return <svg {...base({ ...p, fill: 'currentColor', stroke: 'none' })}><path d="M8 5.5v13a1 1 0 0 0 1.5.86l11-6.5a1 1 0 0 0 0-1.72l-11-6.5A1 1 0 0 0 8 5.5z" /></svg>;
}

export function ArrowLeftIcon(p: IconProps) {
  return <svg {...base(p)}><path d="M19 12H5M11 6l-6 6 6 6" /></svg>;
}

export function GoogleIcon(p: IconProps) {
  return (
    <svg {...base({ viewBox: '0 0 48 48', stroke: 'none', ...p })}>
      <path fill="#FFC107" d="M43.6 20.5H42V20H24v8h11.3C33.7 32.7 29.2 36 24 36c-6.6 0-12-5.4-12-12s5.4-12 12-12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 12.9 4 4 12.9 4 24s8.9 20 20 20 20-8.9 20-20c0-1.2-.1-2.4-.4-3.5z" />
      <path fill="#FF3D00" d="M6.3 14.7l6.6 4.8C14.7 15.1 19 12 24 12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 16.3 4 9.7 8.3 6.3 14.7z" />
      <path fill="#4CAF50" d="M24 44c5.2 0 9.9-2 13.4-5.2l-6.2-5.2C29.2 35.1 26.7 36 24 36c-5.2 0-9.6-3.3-11.3-7.9l-6.5 5C9.5 39.6 16.2 44 24 44z" />
      <path fill="#1976D2" d="M43.6 20.5H42V20H24v8h11.3c-.8 2.2-2.2 4.2-4.1 5.6l6.2 5.2C37 39.2 44 34 44 24c0-1.2-.1-2.4-.4-3.5z" />
    </svg>
  );
}

export function SocialIcon({ kind, ...p }: IconProps & { kind: 'x' | 'instagram' | 'youtube' | 'discord' }) {
  switch (kind) {
    case 'x': return <svg {...base(p)}><path d="M4 4l16 16M20 4L4 20" /></svg>;
    case 'instagram': return <svg {...base(p)}><rect x="3" y="3" width="18" height="18" rx="5" /><circle cx="12" cy="12" r="4" /><circle cx="17.5" cy="6.5" r="0.5" fill="currentColor" /></svg>;
    case 'youtube': return <svg {...base(p)}><rect x="2" y="5" width="20" height="14" rx="4" /><path d="M10 9l5 3-5 3z" fill="currentColor" /></svg>;
    case 'discord': return <svg {...base(p)}><path d="M7 7.5c3-1.3 7-1.3 10 0M7 16.5c3 1.3 7 1.3 10 0M6 7l-2 8c1.5 1.5 3 2 4 2l1-2M18 7l2 8c-1.5 1.5-3 2-4 2l-1-2" /><circle cx="9.5" cy="12" r="1" /><circle cx="14.5" cy="12" r="1" /></svg>;
  }
}
