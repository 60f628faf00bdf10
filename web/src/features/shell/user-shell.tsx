import { useEffect, useId, useRef, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { useMediaQuery } from '../../app/use-media-query';
import { MenuIcon } from '../../components/icons';
import { BulkProgressWindow } from '../bulk-progress/bulk-progress-window';
import { AvatarMenu } from './avatar-menu';
import { ImpersonationBanner } from './impersonation-banner';
import { pageTitle } from './page-titles';
import { Sidebar } from './sidebar';
import './shell.css';

/** Spec doc 1 §9: below 1024 px the sidebar becomes an overlay. */
const MOBILE_QUERY = '(max-width: 1023.98px)';

/** The signed-in user area: sidebar, top bar with title and avatar menu, and the page. */
export function UserShell() {
  const { pathname } = useLocation();
  const isMobile = useMediaQuery(MOBILE_QUERY);
  const [isCollapsed, setIsCollapsed] = useState(false);
  const [isMobileOpen, setIsMobileOpen] = useState(false);
  const sidebarId = useId();
  const menuButton = useRef<HTMLButtonElement>(null);
  const title = pageTitle(pathname);

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

  const shellClass = [
    'shell',
    isMobile ? 'shell--mobile' : '',
    !isMobile && isCollapsed ? 'shell--collapsed' : '',
    isMobile && isMobileOpen ? 'shell--mobile-open' : '',
  ]
    .filter(Boolean)
    .join(' ');

  return (
    <div className={shellClass}>
      <a href="#main-content" className="shell__skip">
        Skip to content
      </a>
      <Sidebar
        id={sidebarId}
        isCollapsed={!isMobile && isCollapsed}
        isMobile={isMobile}
        isMobileOpen={isMobileOpen}
        onToggleCollapsed={() => setIsCollapsed((c) => !c)}
        onNavigate={() => setIsMobileOpen(false)}
      />
      {isMobile && isMobileOpen ? (
        <div className="shell__backdrop" aria-hidden="true" onClick={() => setIsMobileOpen(false)} />
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
        <ImpersonationBanner />
        <main id="main-content" className="shell__content" tabIndex={-1}>
          <Outlet />
        </main>
      </div>
      <BulkProgressWindow />
    </div>
  );
}
