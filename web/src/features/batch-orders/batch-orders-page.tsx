import { ComingSoon } from '../../components/coming-soon';
import { BoxesIcon } from '../../components/icons';

export function BatchOrdersPage() {
  return (
    <ComingSoon
      heading="Batch Orders List"
      description="Follow your bulk orders and download their labels, results and auto-confirm files."
      icon={<BoxesIcon />}
    />
  );
}
