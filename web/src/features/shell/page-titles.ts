/** Top-bar title per /main/<segment> route (spec doc 1 §2); any other route shows Welcome. */
const TITLES: Record<string, string> = {
  dashboard: 'Dashboard',
  'order-label': 'Order Label',
  'bulk-order': 'Bulk Order',
  orders: 'Orders',
  'batch-orders': 'Batch Orders',
  deposit: 'Deposit',
  address: 'Address',
  sku: 'SKU Management',
  admin: 'Admin Panel',
  account: 'Manage Account',
  invite: 'Invite your friends',
};

export function pageTitle(pathname: string): string {
  const match = /^\/main\/([^/]+)\/?$/.exec(pathname);
  return (match?.[1] && TITLES[match[1]]) || 'Welcome';
}
