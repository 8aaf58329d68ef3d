// The footer (accounts spec §2): the tagline, social icons, the Support and Company lists and the copyright line.
// Only Privacy and Terms have destinations in the spec; the other entries are shown as plain text until they do.
import { LogoMark, SocialIcon } from '../ui/icons.js';
import './footer.css';

const SUPPORT: { label: string; href?: string }[] = [{ label: 'Pricing' }, { label: 'Support' }, { label: 'Privacy', href: '/privacy.html' }, { label: 'Terms', href: '/terms.html' }];
const COMPANY = ['About', 'Blog', 'Jobs', 'Press', 'Partners'];
const SOCIAL = [{ kind: 'x', label: 'X' }, { kind: 'instagram', label: 'Instagram' }, { kind: 'youtube', label: 'YouTube' }, { kind: 'discord', label: 'Discord' }] as const;

export function Footer() {
  return (
    <footer className="footer">
      <div className="footer__inner">
        <div className="footer__brand">
          <div className="footer__logo"><LogoMark width={30} height={30} /><span>Looptale</span></div>
          <p className="footer__tagline">extraordinary voice driven adventures</p>
          <ul className="footer__social" aria-label="Looptale elsewhere (coming soon)">
            {SOCIAL.map((s) => (
              <li key={s.kind}><span className="footer__social-icon" title={`${s.label} (coming soon)`}><SocialIcon kind={s.kind} /><span className="visually-hidden">{s.label} (coming soon)</span></span></li>
            ))}
          </ul>
        </div>
        <nav className="footer__lists" aria-label="Footer">
          <div>
            <h2 className="footer__heading">Support</h2>
            <ul>{SUPPORT.map((i) => <li key={i.label}>{i.href ? <a href={i.href}>{i.label}</a> : <span>{i.label}</span>}</li>)}</ul>
          </div>
          <div>
            <h2 className="footer__heading">Company</h2>
            <ul>{COMPANY.map((c) => <li key={c}><span>{c}</span></li>)}</ul>
          </div>
        </nav>
      </div>
      <p className="footer__copyright">© {new Date().getFullYear()} Looptale. All rights reserved.</p>
    </footer>
  );
}
