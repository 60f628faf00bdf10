import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { Link, NavLink, Outlet, useLocation } from 'react-router';
import { useMediaQuery } from '../../app/use-media-query';
import {
  BrandMark,
  ChevronsLeftIcon,
  DashboardIcon,
  LabelIcon,
  ListIcon,
  MenuIcon,
  StackIcon,
  UserIcon,
  UsersIcon,
} from '../../components/icons';
import { AvatarMenu } from '../shell/avatar-menu';
import { AdminDashboard } from './dashboard/admin-dashboard';
import '../../components/components.css';
import '../shell/shell.css';
import './admin.css';

/** Spec doc 3 §9: the sidebar is open at 1024 px and wider, an overlay below. */
const MOBILE_QUERY = '(max-width: 1023.98px)';

/** Spec doc 3 §2: the sidebar lists every admin screen, order-label-management included. */
export const ADMIN_NAV_ITEMS: { to: string; label: string; icon: ReactNode }[] = [
  { to: '/admin/dashboard', label: 'Dashboard', icon: <DashboardIcon /> },
  { to: '/admin/user-management', label: 'User Management', icon: <UsersIcon /> },
  { to: '/admin/order-label-management', label: 'Order Label Management', icon: <LabelIcon /> },
  { to: '/admin/referral-management', label: 'Referral Management', icon: <UserIcon /> },
  { to: '/admin/default-services', label: 'Default Services', icon: <StackIcon /> },
  { to: '/admin/user-volume-rankings', label: 'User Volume Rankings', icon: <ListIcon /> },
];

/** The admin area frame: sidebar (200 px open, 50 px collapsed, an overlay on small screens), header, page. */
export function AdminLayout() {
  const { pathname } = useLocation();
  const isMobile = useMediaQuery(MOBILE_QUERY);
  const [isCollapsed, setIsCollapsed] = useState(false);
  const [isMobileOpen, setIsMobileOpen] = useState(false);
  const sidebarId = useId();
  const menuButton = useRef<HTMLButtonElement>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new route (or a resize across 1024 px) closes the overlay
  useEffect(() => setIsMobileOpen(false), [pathname, isMobile]);

  useEffect(() => {
    if (!isMobileOpen) return;
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
    document.title = 'Admin Panel · Flatship';
  }, []);

  const collapsed = !isMobile && isCollapsed;
  const shellClass = [
    'shell',
    'admin-shell',
    isMobile ? 'shell--mobile' : '',
    collapsed ? 'shell--collapsed' : '',
    isMobile && isMobileOpen ? 'shell--mobile-open' : '',
  ]
    .filter(Boolean)
    .join(' ');
  const linkClass = ({ isActive }: { isActive: boolean }) => `sidebar__link${isActive ? ' sidebar__link--active' : ''}`;
  const close = () => setIsMobileOpen(false);

  return (
    <div className={shellClass}>
      <a href="#admin-content" className="shell__skip">
        Skip to content
      </a>
      <aside id={sidebarId} className="sidebar" aria-label="Admin navigation" inert={isMobile && !isMobileOpen}>
        <div className="sidebar__brand">
          <Link to="/admin/dashboard" className="sidebar__logo" aria-label="Admin dashboard" onClick={close}>
            <BrandMark />
            <span className="sidebar__text">Flatship</span>
          </Link>
        </div>
        <nav className="sidebar__nav">
          <ul className="sidebar__list">
            {ADMIN_NAV_ITEMS.map((item) => (
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
          <ul className="sidebar__list sidebar__list--admin">
            <li>
              <Link
                to="/main/dashboard"
                className="sidebar__link"
                title={collapsed ? 'Back to user area' : undefined}
                aria-label="Back to user area"
                onClick={close}
              >
                <span className="sidebar__icon">
                  <ChevronsLeftIcon />
                </span>
                <span className="sidebar__text">Back to user area</span>
              </Link>
            </li>
          </ul>
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
        <div className="shell__backdrop" data-testid="admin-backdrop" aria-hidden="true" onClick={close} />
      ) : null}
      <div className="shell__body admin-shell__body">
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
          <h1 className="topbar__title">Admin Panel</h1>
          <AvatarMenu />
        </header>
        <main id="admin-content" className="shell__content admin-shell__content" tabIndex={-1}>
          <Outlet />
        </main>
      </div>
    </div>
  );
}

export function AdminDashboardPage() {
  return <AdminDashboard />;
}

/** An address under /admin that names no admin screen. */
export function AdminNotFoundPage() {
  return (
    <section className="card admin-layout__soon">
      <h2>Page not found</h2>
      <p>There is no admin screen at this address.</p>
      <p>
        <Link to="/admin/dashboard">Go to the admin dashboard</Link>
      </p>
    </section>
  );
}
