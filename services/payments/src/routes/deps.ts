import type {
  Clock,
  DepositsRepo,
  LedgerRepo,
  PaymentProvider,
  PublishDepositSettled,
  ReferralBonusRepo,
  Transactor,
} from '../domain/ports';

/** BTCPay, when deposits are on. */
export interface BtcpayDeps {
  provider: PaymentProvider;
  webhookSecret: string;
}

/** Everything the use cases may ask for; each route hands on what its use case needs. */
export interface DomainDeps {
  ledger: LedgerRepo;
  deposits: DepositsRepo;
  transactor: Transactor;
  clock: Clock;
  bonuses: ReferralBonusRepo;
  publishDepositSettled: PublishDepositSettled;
  /** Null when deposits are off (no BTCPAY_URL). */
  btcpay: BtcpayDeps | null;
}
