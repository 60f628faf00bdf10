import { ComingSoon } from '../../components/coming-soon';
import { StackIcon } from '../../components/icons';

export function BulkOrderPage() {
  return (
    <ComingSoon
      heading="Bulk Order Items"
      description="Upload a .csv, Amazon .txt or Walmart .xlsx order file, review the rows and buy every label in one go."
      icon={<StackIcon />}
    />
  );
}
