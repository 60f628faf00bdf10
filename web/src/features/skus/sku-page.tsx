import { ComingSoon } from '../../components/coming-soon';
import { BarcodeIcon } from '../../components/icons';

export function SkuPage() {
  return (
    <ComingSoon
      heading="SKU Data Management"
      description="Save package presets by SKU so dimensions and weight fill themselves in bulk orders."
      icon={<BarcodeIcon />}
    />
  );
}
