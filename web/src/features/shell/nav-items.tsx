import type { ReactNode } from 'react';
import {
  BarcodeIcon,
  BoxesIcon,
  DashboardIcon,
  LabelIcon,
  ListIcon,
  PinIcon,
  StackIcon,
  UserIcon,
  UsersIcon,
  WalletIcon,
} from '../../components/icons';
import type { Role } from '../auth/session-user';

export interface NavItem {
  to: string;
  label: string;
  icon: ReactNode;
  isVisibleTo?: (role: Role) => boolean;
}

export const NAV_ITEMS: NavItem[] = [
  { to: '/main/dashboard', label: 'Dashboard', icon: <DashboardIcon /> },
  { to: '/main/order-label', label: 'Order Label', icon: <LabelIcon /> },
  { to: '/main/bulk-order', label: 'Bulk Order', icon: <StackIcon /> },
  { to: '/main/orders', label: 'Orders', icon: <ListIcon /> },
  { to: '/main/batch-orders', label: 'Batch Orders', icon: <BoxesIcon /> },
  { to: '/main/deposit', label: 'Deposit', icon: <WalletIcon /> },
  { to: '/main/address', label: 'Address', icon: <PinIcon /> },
  { to: '/main/sku', label: 'SKU', icon: <BarcodeIcon /> },
  // Spec: invites are for friends and admins, not plain users.
  { to: '/main/invite', label: 'Invites', icon: <UsersIcon />, isVisibleTo: (role) => role !== 'user' },
  { to: '/main/account', label: 'Account', icon: <UserIcon /> },
];
