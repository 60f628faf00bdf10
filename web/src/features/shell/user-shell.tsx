import './user-area';
import { Outlet, useLocation } from 'react-router';
import { useAppSelector } from '../../app/hooks';
import { ShieldIcon } from '../../components/icons';
import { selectUser } from '../auth/auth-selectors';
import { BulkProgressWindow } from '../bulk-progress/bulk-progress-window';
import { BatchLabelsDialog } from '../refunds/batch-labels-dialog';
import { TrackingDialog } from '../tracking/tracking-dialog';
import { ImpersonationBanner } from './impersonation-banner';
import { NAV_ITEMS } from './nav-items';
import { pageTitle } from './page-titles';
import { SidebarFrame } from './sidebar-frame';

const ADMIN_PANEL_LINK = [{ to: '/admin/dashboard', label: 'Admin Panel', icon: <ShieldIcon /> }];

/** The signed-in user area: sidebar, top bar with title and avatar menu, and the page. */
export function UserShell() {
  const { pathname } = useLocation();
  const role = useAppSelector(selectUser)?.user_role ?? 'user';
  return (
    <SidebarFrame
      navLabel="Main navigation"
      home={{ to: '/main/dashboard', label: 'Flatship dashboard' }}
      links={NAV_ITEMS.filter((item) => !item.isVisibleTo || item.isVisibleTo(role))}
      // Spec doc 1 §5: the Admin Panel link shows to admins only.
      otherLinks={role === 'admin' ? ADMIN_PANEL_LINK : []}
      title={pageTitle(pathname)}
      contentId="main-content"
      banner={<ImpersonationBanner />}
      after={
        <>
          <BulkProgressWindow />
          <BatchLabelsDialog />
          {/* After the batch's labels: a label's events open over them. */}
          <TrackingDialog />
        </>
      }
    >
      <Outlet />
    </SidebarFrame>
  );
}
