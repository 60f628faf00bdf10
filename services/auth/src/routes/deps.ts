import type {
  AddressChecker,
  AddressesRepo,
  Clock,
  DomainLogger,
  MoneySummarySource,
  PasswordHasher,
  PasswordResetsRepo,
  PublishUserChanged,
  ReferralBonusSource,
  ResetMailer,
  SignToken,
  Transactor,
  UsersRepo,
} from '../domain/ports';
import type { SkusRepo } from '../domain/sku-ports';

/** Everything the use cases may ask for; each route hands on what its use case needs. */
export interface DomainDeps {
  users: UsersRepo;
  addresses: AddressesRepo;
  skus: SkusRepo;
  hasher: PasswordHasher;
  transactor: Transactor;
  publishUserChanged: PublishUserChanged;
  signToken: SignToken;
  /** How long a login-as token lives (LOGIN_AS_TTL). */
  loginAsTtl: string;
  money: MoneySummarySource;
  referralBonuses: ReferralBonusSource;
  resets: PasswordResetsRepo;
  mailer: ResetMailer;
  clock: Clock;
  /** Where users open the web app; reset links point there. */
  publicUrl: string;
  logger: DomainLogger;
  /** Checks saved addresses with the carrier (through orders); absent: saved unchecked. */
  addressChecker?: AddressChecker | null;
}
