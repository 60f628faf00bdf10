import { ComingSoon } from '../../components/coming-soon';
import { ListIcon } from '../../components/icons';

export function OrdersPage() {
  return (
    <ComingSoon
      heading="Your orders"
      description="Every label you have bought, with its tracking number and a PDF download."
      icon={<ListIcon />}
    />
  );
}
