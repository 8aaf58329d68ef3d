// The profile dropdown (accounts spec §2): My profile, Settings, Share feedback, Sign out (and, for admins only, the
// Studio: the admin area; ours, the spec shows no admin link). A WAI-ARIA menu button:
// arrows, Home/End, Escape, and type-ahead whose buffer resets after 350 ms (accounts spec §9).
import { useEffect, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useMe } from '../api/queries.js';
import { signOut, useSession } from '../auth/session.js';
import { ChevronDownIcon, UserIcon } from '../ui/icons.js';
import './profile-menu.css';

export const MENU_TYPEAHEAD_RESET_MS = 350;

type Item = { label: string; to?: string; action?: () => void };

export function ProfileMenu({ email }: { email: string }) {
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const button = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const typed = useRef({ text: '', at: 0 });
  const menuId = useId();
  const { state } = useSession();
  const me = useMe(state.status === 'signed_in' ? state.userId : null);

  const items: Item[] = [
    { label: 'My profile', to: '/my-profile' },
    { label: 'Settings', to: '/settings' },
    { label: 'Share feedback', to: '/share-feedback' },
    ...(me.data && me.data.role !== 'player' ? [{ label: 'Studio', to: '/admin' }] : []),
    { label: 'Sign out', action: () => void signOut().then(() => navigate('/browse')) },
  ];

  useEffect(() => {
    if (!open) return;
    list.current?.querySelectorAll<HTMLElement>('[role="menuitem"]')[active]?.focus();
  }, [open, active]);

  useEffect(() => {
    if (!open) return;
    const close = (e: PointerEvent) => {
      if (!list.current?.contains(e.target as Node) && !button.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', close);
    return () => document.removeEventListener('pointerdown', close);
  }, [open]);

  const openAt = (index: number) => {
    setActive(index);
    setOpen(true);
  };

  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  };

  const choose = (item: Item) => {
    close(false);
    if (item.to) void navigate(item.to);
    item.action?.();
  };

  const onButtonKey = (e: React.KeyboardEvent) => {
    if (e.key === 'ArrowDown' || e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      openAt(0);
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      openAt(items.length - 1);
    }
  };

  const onMenuKey = (e: React.KeyboardEvent) => {
    const n = items.length;
    switch (e.key) {
      case 'ArrowDown': e.preventDefault(); setActive((i) => (i + 1) % n); return;
      case 'ArrowUp': e.preventDefault(); setActive((i) => (i - 1 + n) % n); return;
      case 'Home': e.preventDefault(); setActive(0); return;
      case 'End': e.preventDefault(); setActive(n - 1); return;
      case 'Escape': e.preventDefault(); close(true); return;
      case 'Tab': close(false); return;
      default:
        if (e.key.length === 1 && /\S/.test(e.key) && !e.ctrlKey && !e.metaKey && !e.altKey) {
          const now = e.timeStamp;
          const t = typed.current;
          t.text = now - t.at > MENU_TYPEAHEAD_RESET_MS ? e.key.toLowerCase() : t.text + e.key.toLowerCase();
          t.at = now;
          const start = t.text.length === 1 ? active + 1 : active;
          for (let k = 0; k < n; k++) {
            const i = (start + k) % n;
            if (items[i]?.label.toLowerCase().startsWith(t.text)) {
              setActive(i);
              break;
            }
          }
        }
    }
  };

  return (
    <div className="profile-menu">
      <button
        ref={button}
        type="button"
        className="profile-menu__button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => (open ? close(false) : openAt(0))}
        onKeyDown={onButtonKey}
      >
        <span className="profile-menu__avatar" aria-hidden="true"><UserIcon /></span>
        <span className="visually-hidden">Profile menu for {email}</span>
        <ChevronDownIcon className="profile-menu__chevron" />
      </button>
      {open ? (
        <ul ref={list} id={menuId} role="menu" aria-label="Profile" className="profile-menu__list" onKeyDown={onMenuKey}>
          <li role="presentation" className="profile-menu__email">{email}</li>
          {items.map((item, i) => (
            <li role="presentation" key={item.label}>
              <button type="button" role="menuitem" tabIndex={i === active ? 0 : -1} className="profile-menu__item" onClick={() => choose(item)} onMouseEnter={() => setActive(i)}>
                {item.label}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
