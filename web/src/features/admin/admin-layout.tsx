import './admin-area';
import { Link, Outlet } from 'react-router';
import {
  ChevronsLeftIcon,
  DashboardIcon,
  LabelIcon,
  ListIcon,
  StackIcon,
  UserIcon,
  UsersIcon,
} from '../../components/icons';
import { SidebarFrame, type SidebarLink } from '../shell/sidebar-frame';
import { AdminDashboard } from './dashboard/admin-dashboard';
import '../../components/components.css';
import './admin.css';

/** Spec doc 3 §2: the sidebar lists every admin screen, order-label-management included. */
export const ADMIN_NAV_ITEMS: SidebarLink[] = [
  { to: '/admin/dashboard', label: 'Dashboard', icon: <DashboardIcon /> },
  { to: '/admin/user-management', label: 'User Management', icon: <UsersIcon /> },
  { to: '/admin/order-label-management', label: 'Order Label Management', icon: <LabelIcon /> },
  { to: '/admin/referral-management', label: 'Referral Management', icon: <UserIcon /> },
  { to: '/admin/default-services', label: 'Default Services', icon: <StackIcon /> },
  { to: '/admin/user-volume-rankings', label: 'User Volume Rankings', icon: <ListIcon /> },
];

const BACK_TO_USER_AREA = [{ to: '/main/dashboard', label: 'Back to user area', icon: <ChevronsLeftIcon /> }];

/** The admin area frame: sidebar (200 px open, 50 px collapsed, an overlay on small screens), header, page. */
export function AdminLayout() {
  return (
    <SidebarFrame
      navLabel="Admin navigation"
      home={{ to: '/admin/dashboard', label: 'Admin dashboard' }}
      links={ADMIN_NAV_ITEMS}
      otherLinks={BACK_TO_USER_AREA}
      title="Admin Panel"
      contentId="admin-content"
      className="admin-shell"
    >
      <Outlet />
    </SidebarFrame>
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
