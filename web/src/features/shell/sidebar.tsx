import { Link, NavLink } from 'react-router';
import { useAppSelector } from '../../app/hooks';
import { BrandMark, ChevronsLeftIcon, ShieldIcon } from '../../components/icons';
import { selectUser } from '../auth/auth-selectors';
import { NAV_ITEMS } from './nav-items';

interface SidebarProps {
  id: string;
  /** Desktop only: icons without labels, 50 px wide. */
  isCollapsed: boolean;
  isMobile: boolean;
  isMobileOpen: boolean;
  onToggleCollapsed: () => void;
  onNavigate: () => void;
}

export function Sidebar({ id, isCollapsed, isMobile, isMobileOpen, onToggleCollapsed, onNavigate }: SidebarProps) {
  const user = useAppSelector(selectUser);
  const role = user?.user_role ?? 'user';
  const items = NAV_ITEMS.filter((item) => !item.isVisibleTo || item.isVisibleTo(role));
  const linkClass = ({ isActive }: { isActive: boolean }) => `sidebar__link${isActive ? ' sidebar__link--active' : ''}`;

  return (
    <aside
      id={id}
      className="sidebar"
      aria-label="Main navigation"
      // Off-screen on mobile: keep its links out of the tab order too.
      inert={isMobile && !isMobileOpen}
    >
      <div className="sidebar__brand">
        <Link to="/main/dashboard" className="sidebar__logo" aria-label="Flatship dashboard" onClick={onNavigate}>
          <BrandMark />
          <span className="sidebar__text">Flatship</span>
        </Link>
      </div>
      <nav className="sidebar__nav">
        <ul className="sidebar__list">
          {items.map((item) => (
            <li key={item.to}>
              <NavLink
                to={item.to}
                className={linkClass}
                title={isCollapsed ? item.label : undefined}
                aria-label={item.label}
                onClick={onNavigate}
              >
                <span className="sidebar__icon">{item.icon}</span>
                <span className="sidebar__text">{item.label}</span>
              </NavLink>
            </li>
          ))}
        </ul>
        {role === 'admin' ? (
          <ul className="sidebar__list sidebar__list--admin">
            <li>
              <NavLink
                to="/admin/dashboard"
                className={linkClass}
                title={isCollapsed ? 'Admin Panel' : undefined}
                aria-label="Admin Panel"
                onClick={onNavigate}
              >
                <span className="sidebar__icon">
                  <ShieldIcon />
                </span>
                <span className="sidebar__text">Admin Panel</span>
              </NavLink>
            </li>
          </ul>
        ) : null}
      </nav>
      {isMobile ? null : (
        <button
          type="button"
          className="sidebar__collapse"
          onClick={onToggleCollapsed}
          aria-expanded={!isCollapsed}
          aria-controls={id}
          aria-label={isCollapsed ? 'Expand sidebar' : 'Collapse sidebar'}
          title={isCollapsed ? 'Expand sidebar' : 'Collapse sidebar'}
        >
          <ChevronsLeftIcon />
          <span className="sidebar__text">Collapse</span>
        </button>
      )}
    </aside>
  );
}
