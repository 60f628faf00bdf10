import { Link, Outlet } from 'react-router';
import { BrandMark } from '../../components/icons';
import { AdminDashboard } from './dashboard/admin-dashboard';
import '../../components/components.css';
import './admin.css';

/** Minimal frame of the admin area until its own shell lands. */
export function AdminLayout() {
  return (
    <div className="admin-layout">
      <header className="admin-layout__header">
        <span className="admin-layout__brand">
          <BrandMark />
          <span>Flatship</span>
        </span>
        <h1 className="admin-layout__title">Admin Panel</h1>
        <Link to="/main/dashboard" className="admin-layout__back">
          Back to dashboard
        </Link>
      </header>
      <main className="admin-layout__content">
        <Outlet />
      </main>
    </div>
  );
}

export function AdminDashboardPage() {
  return <AdminDashboard />;
}

/** Any other admin screen: user management, services and rankings come next. */
export function AdminComingSoonPage() {
  return (
    <section className="card admin-layout__soon">
      <h2>Admin tools</h2>
      <p>User management, referral management, default services and volume rankings will live here.</p>
      <p className="coming-soon__note">Available soon.</p>
    </section>
  );
}
