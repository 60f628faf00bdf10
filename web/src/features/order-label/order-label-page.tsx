import { ComingSoon } from '../../components/coming-soon';
import { LabelIcon } from '../../components/icons';

export function OrderLabelPage() {
  return (
    <ComingSoon
      heading="Order a single label"
      description="Buy a single USPS label from your balance: pick a service, enter the package and both addresses, and download the PDF."
      icon={<LabelIcon />}
    />
  );
}
