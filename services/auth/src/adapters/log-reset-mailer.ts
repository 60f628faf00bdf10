import type { DomainLogger, ResetMailer } from '../domain/ports';

/**
 * Without SMTP the link goes to the service log, so the operator of a
 * self-hosted install can hand it to the user. The log is the operator's, not
 * the public's: it already holds every request of the service.
 */
export function createLogResetMailer(logger: DomainLogger): ResetMailer {
  return {
    async send(mail) {
      logger.warn(
        { to: mail.to, link: mail.link, expiresAt: mail.expiresAt.toISOString() },
        'password reset link (SMTP_URL is not set, so it is not emailed; hand it to the user)',
      );
    },
  };
}
