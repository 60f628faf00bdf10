import { createBrowserRouter, Link, Navigate, type RouteObject, useRouteError } from 'react-router';
import { RequireAuth } from '../features/auth/require-auth';
import { lazyPage } from './lazy-page';
import { RequireAdmin, RequireInviter } from './route-guards';

// Every page is its own chunk, downloaded when it is first shown: a visitor of the landing page
// downloads none of the signed-in or admin pages (see lazyPage for the loader and the retry).
const LandingPage = lazyPage(
  () => import('../features/landing/landing-page'),
  (m) => m.LandingPage,
);
const AuthLayout = lazyPage(
  () => import('../features/auth/auth-layout'),
  (m) => m.AuthLayout,
);
const LoginPage = lazyPage(
  () => import('../features/auth/login-page'),
  (m) => m.LoginPage,
);
const RegisterPage = lazyPage(
  () => import('../features/auth/register-page'),
  (m) => m.RegisterPage,
);
const ForgotPasswordPage = lazyPage(
  () => import('../features/auth/forgot-password-page'),
  (m) => m.ForgotPasswordPage,
);
const ResetPasswordPage = lazyPage(
  () => import('../features/auth/reset-password-page'),
  (m) => m.ResetPasswordPage,
);
const OnboardingPage = lazyPage(
  () => import('../features/auth/onboarding-page'),
  (m) => m.OnboardingPage,
);
const UserShell = lazyPage(
  () => import('../features/shell/user-shell'),
  (m) => m.UserShell,
);
const DashboardPage = lazyPage(
  () => import('../features/dashboard/dashboard-page'),
  (m) => m.DashboardPage,
);
const OrderLabelPage = lazyPage(
  () => import('../features/order-label/order-label-page'),
  (m) => m.OrderLabelPage,
);
const BulkOrderPage = lazyPage(
  () => import('../features/bulk-order/bulk-order-page'),
  (m) => m.BulkOrderPage,
);
const OrdersPage = lazyPage(
  () => import('../features/orders/orders-page'),
  (m) => m.OrdersPage,
);
const BatchOrdersPage = lazyPage(
  () => import('../features/batch-orders/batch-orders-page'),
  (m) => m.BatchOrdersPage,
);
const DepositPage = lazyPage(
  () => import('../features/deposits/deposit-page'),
  (m) => m.DepositPage,
);
const AddressPage = lazyPage(
  () => import('../features/addresses/address-page'),
  (m) => m.AddressPage,
);
const SkuPage = lazyPage(
  () => import('../features/skus/sku-page'),
  (m) => m.SkuPage,
);
const AdminDashboard = lazyPage(
  () => import('../features/admin/dashboard/admin-dashboard'),
  (m) => m.AdminDashboard,
);
const AccountPage = lazyPage(
  () => import('../features/account/account-page'),
  (m) => m.AccountPage,
);
const InvitePage = lazyPage(
  () => import('../features/invites/invite-page'),
  (m) => m.InvitePage,
);
const AdminLayout = lazyPage(
  () => import('../features/admin/admin-layout'),
  (m) => m.AdminLayout,
);
const AdminDashboardPage = lazyPage(
  () => import('../features/admin/admin-layout'),
  (m) => m.AdminDashboardPage,
);
const AdminNotFoundPage = lazyPage(
  () => import('../features/admin/admin-layout'),
  (m) => m.AdminNotFoundPage,
);
const RankingsPage = lazyPage(
  () => import('../features/admin/rankings/rankings-page'),
  (m) => m.RankingsPage,
);
const OrderLabelsPage = lazyPage(
  () => import('../features/admin/order-labels/order-labels-page'),
  (m) => m.OrderLabelsPage,
);
const UserManagementPage = lazyPage(
  () => import('../features/admin/users/user-management-page'),
  (m) => m.UserManagementPage,
);
const DefaultServicesPage = lazyPage(
  () => import('../features/admin/default-services/default-services-page'),
  (m) => m.DefaultServicesPage,
);
const ReferralManagementPage = lazyPage(
  () => import('../features/admin/referrals/referral-management-page'),
  (m) => m.ReferralManagementPage,
);

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
        element: <LandingPage />,
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
          {
            path: 'invite',
            element: (
              <RequireInviter>
                <InvitePage />
              </RequireInviter>
            ),
          },
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
