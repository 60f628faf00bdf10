import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { useMediaQuery } from '../../app/use-media-query';
import { BrandMark, ChevronsLeftIcon, MenuIcon } from '../../components/icons';
import { AvatarMenu } from './avatar-menu';
import './shell.css';

/** Spec doc 1 §9 and doc 3 §9: below 1024 px the sidebar becomes an overlay. */
const MOBILE_QUERY = '(max-width: 1023.98px)';

export interface SidebarLink {
  to: string;
  label: string;
  icon: ReactNode;
}

interface SidebarFrameProps {
  /** Names the navigation landmark, e.g. 'Main navigation'. */
  navLabel: string;
  /** Where the logo leads, and its accessible name. */
  home: { to: string; label: string };
  /** The main list of screens. */
  links: SidebarLink[];
  /** A second list below a divider (the way to the other area). */
  otherLinks?: SidebarLink[];
  /** The top bar's heading. */
  title: string;
  /** The id the skip link jumps to. */
  contentId: string;
  /** Extra class on the frame, e.g. for the admin area's own spacing. */
  className?: string;
  /** Shown between the top bar and the page. */
  banner?: ReactNode;
  /** The page. */
  children: ReactNode;
  /** Rendered after the frame (floating windows). */
  after?: ReactNode;
}

/**
 * The frame of the user area and the admin area (spec doc 1 §5, doc 3 §2): a
 * sidebar 200 px open and 50 px collapsed at 1024 px and wider, an overlay with
 * a dark backdrop below (opened by the hamburger, closed by the backdrop,
 * Escape or following a link), a top bar with the title and the avatar menu.
 */
export function SidebarFrame({
  navLabel,
  home,
  links,
  otherLinks = [],
  title,
  contentId,
  className,
  banner,
  children,
  after,
}: SidebarFrameProps) {
  const { pathname } = useLocation();
  const isMobile = useMediaQuery(MOBILE_QUERY);
  const [isCollapsed, setIsCollapsed] = useState(false);
  const [isMobileOpen, setIsMobileOpen] = useState(false);
  const sidebarId = useId();
  const menuButton = useRef<HTMLButtonElement>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new route (or leaving mobile) closes the overlay
  useEffect(() => setIsMobileOpen(false), [pathname, isMobile]);

  useEffect(() => {
    if (!isMobileOpen) return;
    // The overlay takes focus so keyboard users start in the menu they opened.
    document.getElementById(sidebarId)?.querySelector<HTMLElement>('nav a')?.focus();
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setIsMobileOpen(false);
        menuButton.current?.focus();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [isMobileOpen, sidebarId]);

  useEffect(() => {
    document.title = `${title} · Flatship`;
  }, [title]);

  const collapsed = !isMobile && isCollapsed;
  const frameClass = [
    'shell',
    className ?? '',
    isMobile ? 'shell--mobile' : '',
    collapsed ? 'shell--collapsed' : '',
    isMobile && isMobileOpen ? 'shell--mobile-open' : '',
  ]
    .filter(Boolean)
    .join(' ');
  const close = () => setIsMobileOpen(false);
  const linkClass = ({ isActive }: { isActive: boolean }) => `sidebar__link${isActive ? ' sidebar__link--active' : ''}`;
  const list = (items: SidebarLink[], extraClass = '') => (
    <ul className={`sidebar__list${extraClass}`}>
      {items.map((item) => (
        <li key={item.to}>
          <NavLink
            to={item.to}
            className={linkClass}
            title={collapsed ? item.label : undefined}
            aria-label={item.label}
            onClick={close}
          >
            <span className="sidebar__icon">{item.icon}</span>
            <span className="sidebar__text">{item.label}</span>
          </NavLink>
        </li>
      ))}
    </ul>
  );

  return (
    <div className={frameClass}>
      <a href={`#${contentId}`} className="shell__skip">
        Skip to content
      </a>
      <aside
        id={sidebarId}
        className="sidebar"
        aria-label={navLabel}
        // Off-screen on mobile: keep its links out of the tab order too.
        inert={isMobile && !isMobileOpen}
      >
        <div className="sidebar__brand">
          <Link to={home.to} className="sidebar__logo" aria-label={home.label} onClick={close}>
            <BrandMark />
            <span className="sidebar__text">Flatship</span>
          </Link>
        </div>
        <nav className="sidebar__nav">
          {list(links)}
          {otherLinks.length > 0 ? list(otherLinks, ' sidebar__list--admin') : null}
        </nav>
        {isMobile ? null : (
          <button
            type="button"
            className="sidebar__collapse"
            onClick={() => setIsCollapsed((c) => !c)}
            aria-expanded={!collapsed}
            aria-controls={sidebarId}
            aria-label={collapsed ? 'Expand sidebar' : 'Collapse sidebar'}
            title={collapsed ? 'Expand sidebar' : 'Collapse sidebar'}
          >
            <ChevronsLeftIcon />
            <span className="sidebar__text">Collapse</span>
          </button>
        )}
      </aside>
      {isMobile && isMobileOpen ? (
        <div className="shell__backdrop" data-testid="sidebar-backdrop" aria-hidden="true" onClick={close} />
      ) : null}
      <div className="shell__body">
        <header className="topbar">
          {isMobile ? (
            <button
              ref={menuButton}
              type="button"
              className="icon-button topbar__menu"
              aria-label="Open menu"
              aria-expanded={isMobileOpen}
              aria-controls={sidebarId}
              onClick={() => setIsMobileOpen(true)}
            >
              <MenuIcon width={24} height={24} />
            </button>
          ) : null}
          <h1 className="topbar__title">{title}</h1>
          <AvatarMenu />
        </header>
        {banner}
        <main id={contentId} className="shell__content" tabIndex={-1}>
          {children}
        </main>
      </div>
      {after}
    </div>
  );
}
