import { lazy, Suspense } from 'react';
import { createBrowserRouter, Link, Navigate, type RouteObject, useRouteError } from 'react-router';
import { Loader } from '../components/spinner';
import { AccountPage } from '../features/account/account-page';
import { AddressPage } from '../features/addresses/address-page';
import { AdminDashboardPage, AdminLayout, AdminNotFoundPage } from '../features/admin/admin-layout';
import { AdminDashboard } from '../features/admin/dashboard/admin-dashboard';
import { DefaultServicesPage } from '../features/admin/default-services/default-services-page';
import { OrderLabelsPage } from '../features/admin/order-labels/order-labels-page';
import { RankingsPage } from '../features/admin/rankings/rankings-page';
import { ReferralManagementPage } from '../features/admin/referrals/referral-management-page';
import { UserManagementPage } from '../features/admin/users/user-management-page';
import { AuthLayout } from '../features/auth/auth-layout';
import { ForgotPasswordPage } from '../features/auth/forgot-password-page';
import { LoginPage } from '../features/auth/login-page';
import { OnboardingPage } from '../features/auth/onboarding-page';
import { RegisterPage } from '../features/auth/register-page';
import { RequireAdmin, RequireAuth } from '../features/auth/require-auth';
import { ResetPasswordPage } from '../features/auth/reset-password-page';
import { BatchOrdersPage } from '../features/batch-orders/batch-orders-page';
import { BulkOrderPage } from '../features/bulk-order/bulk-order-page';
import { DashboardPage } from '../features/dashboard/dashboard-page';
import { DepositPage } from '../features/deposits/deposit-page';
import { InvitePage } from '../features/invites/invite-page';
import { OrderLabelPage } from '../features/order-label/order-label-page';
import { OrdersPage } from '../features/orders/orders-page';
import { UserShell } from '../features/shell/user-shell';
import { SkuPage } from '../features/skus/sku-page';

// The landing page is heavy (images, animations) and only for visitors: its own chunk.
const LandingPage = lazy(() => import('../features/landing/landing-page').then((m) => ({ default: m.LandingPage })));

function RouteError() {
  const error = useRouteError();
  console.error(error);
  return (
    <div className="route-message">
      <h1>Something went wrong</h1>
      <p>The page could not be shown. Reload the page or go back to the start.</p>
      <Link to="/">Go to the home page</Link>
    </div>
  );
}

function NotFoundPage() {
  return (
    <div className="route-message">
      <h1>Page not found</h1>
      <p>There is nothing at this address.</p>
      <Link to="/">Go to the home page</Link>
    </div>
  );
}

/** Unknown /main paths: the top bar reads Welcome; offer the way back. */
function MainNotFoundPage() {
  return (
    <div className="card route-message route-message--inline">
      <h2>Page not found</h2>
      <p>This page does not exist in your account area.</p>
      <Link to="/main/dashboard">Go to the dashboard</Link>
    </div>
  );
}

export const routes: RouteObject[] = [
  {
    errorElement: <RouteError />,
    children: [
      {
        path: '/',
        element: (
          <Suspense fallback={<Loader />}>
            <LandingPage />
          </Suspense>
        ),
      },
      {
        element: <AuthLayout />,
        children: [
          { path: '/login', element: <LoginPage /> },
          { path: '/register', element: <RegisterPage /> },
          { path: '/forgot-password', element: <ForgotPasswordPage /> },
          { path: '/reset-password', element: <ResetPasswordPage /> },
        ],
      },
      {
        path: '/onboarding',
        element: (
          <RequireAuth>
            <OnboardingPage />
          </RequireAuth>
        ),
      },
      {
        path: '/main',
        element: (
          <RequireAuth>
            <UserShell />
          </RequireAuth>
        ),
        children: [
          { index: true, element: <Navigate to="dashboard" replace /> },
          { path: 'dashboard', element: <DashboardPage /> },
          { path: 'order-label', element: <OrderLabelPage /> },
          { path: 'bulk-order', element: <BulkOrderPage /> },
          { path: 'orders', element: <OrdersPage /> },
          { path: 'batch-orders', element: <BatchOrdersPage /> },
          { path: 'deposit', element: <DepositPage /> },
          { path: 'address', element: <AddressPage /> },
          { path: 'sku', element: <SkuPage /> },
          {
            path: 'admin',
            element: (
              <RequireAdmin>
                <AdminDashboard />
              </RequireAdmin>
            ),
          },
          { path: 'account', element: <AccountPage /> },
          { path: 'invite', element: <InvitePage /> },
          { path: '*', element: <MainNotFoundPage /> },
        ],
      },
      {
        path: '/admin',
        element: (
          <RequireAuth>
            <RequireAdmin>
              <AdminLayout />
            </RequireAdmin>
          </RequireAuth>
        ),
        children: [
          { index: true, element: <Navigate to="dashboard" replace /> },
          { path: 'dashboard', element: <AdminDashboardPage /> },
          { path: 'user-volume-rankings', element: <RankingsPage /> },
          { path: 'order-label-management', element: <OrderLabelsPage /> },
          { path: 'user-management', element: <UserManagementPage /> },
          { path: 'default-services', element: <DefaultServicesPage /> },
          { path: 'referral-management', element: <ReferralManagementPage /> },
          { path: '*', element: <AdminNotFoundPage /> },
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
