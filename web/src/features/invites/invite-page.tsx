import { ComingSoon } from '../../components/coming-soon';
import { UsersIcon } from '../../components/icons';

export function InvitePage() {
  return (
    <ComingSoon
      heading="Invite your friends"
      description="Share your invite link and referral code, and see who joined with it."
      icon={<UsersIcon />}
    />
  );
}
