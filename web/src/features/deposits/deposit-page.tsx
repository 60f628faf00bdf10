import { ComingSoon } from '../../components/coming-soon';
import { WalletIcon } from '../../components/icons';

export function DepositPage() {
  return (
    <ComingSoon
      heading="Deposit History"
      description="Top up your balance with a Bitcoin invoice and review every deposit you have made."
      icon={<WalletIcon />}
    />
  );
}
