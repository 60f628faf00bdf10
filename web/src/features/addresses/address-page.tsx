import { ComingSoon } from '../../components/coming-soon';
import { PinIcon } from '../../components/icons';

export function AddressPage() {
  return (
    <ComingSoon
      heading="Address Book"
      description="Keep the sender and recipient addresses you use most, ready to fill a label."
      icon={<PinIcon />}
    />
  );
}
