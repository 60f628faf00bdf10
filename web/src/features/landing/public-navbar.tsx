import './public-layout.css';
import { useEffect, useId, useRef, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { CloseIcon, FlatshipMark, MenuIcon } from './icons';
import { ScrollLink } from './scroll-link';

const SCROLL_LINKS = [
  { label: 'How It Works', sectionId: 'how-it-works' },
  { label: 'Pricing', sectionId: 'pricing' },
  { label: 'FAQ', sectionId: 'faq' },
] as const;

/** The navbar of the public pages (/, /login, /register). */
export function PublicNavbar() {
  const { pathname } = useLocation();
  const isLanding = pathname === '/';
  const [isMenuOpen, setIsMenuOpen] = useState(false);
  const menuId = useId();
  const toggleRef = useRef<HTMLButtonElement>(null);

  // A route change (Login, Register) must not leave the menu hanging open.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on purpose whenever the path changes
  useEffect(() => setIsMenuOpen(false), [pathname]);

  useEffect(() => {
    if (!isMenuOpen) return;
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setIsMenuOpen(false);
        toggleRef.current?.focus();
      }
    };
    document.addEventListener('keydown', closeOnEscape);
    return () => document.removeEventListener('keydown', closeOnEscape);
  }, [isMenuOpen]);

  const navLinkClass = ({ isActive }: { isActive: boolean }) => `lp-nav__link${isActive ? ' is-active' : ''}`;

  return (
    <header className="lp-nav">
      <nav className="lp-nav__bar" aria-label="Main">
        <Link to="/" className="lp-nav__logo" aria-label="Flatship home">
          <FlatshipMark />
          <span>Flatship</span>
        </Link>
        <button
          ref={toggleRef}
          type="button"
          className="lp-nav__toggle"
          aria-expanded={isMenuOpen}
          aria-controls={menuId}
          aria-label={isMenuOpen ? 'Close menu' : 'Open menu'}
          onClick={() => setIsMenuOpen((open) => !open)}
        >
          {isMenuOpen ? <CloseIcon /> : <MenuIcon />}
        </button>
        <div id={menuId} className={`lp-nav__menu${isMenuOpen ? ' is-open' : ''}`}>
          {isLanding ? (
            <ul className="lp-nav__sections">
              {SCROLL_LINKS.map((link) => (
                <li key={link.sectionId}>
                  <ScrollLink
                    className="lp-nav__link"
                    sectionId={link.sectionId}
                    onNavigate={() => setIsMenuOpen(false)}
                  >
                    {link.label}
                  </ScrollLink>
                </li>
              ))}
            </ul>
          ) : null}
          <div className="lp-nav__auth">
            <NavLink to="/login" className={navLinkClass}>
              Login
            </NavLink>
            <NavLink to="/register" className={({ isActive }) => `lp-nav__cta${isActive ? ' is-active' : ''}`}>
              Register
            </NavLink>
          </div>
        </div>
      </nav>
    </header>
  );
}
