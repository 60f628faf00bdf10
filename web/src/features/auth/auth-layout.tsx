import { Outlet } from 'react-router';
import { PublicNavbar } from '../landing/public-navbar';
import './auth.css';

/** Public form pages (/login, /register, /forgot-password): the landing navbar over a centred card. */
export function AuthLayout() {
  return (
    <div className="auth-layout">
      <PublicNavbar />
      <main className="auth-layout__main">
        <Outlet />
      </main>
    </div>
  );
}
