import type { DomainLogger, ResetMailer } from '../domain/ports';

/**
 * Without SMTP no email can go out. The link itself is not logged: it is as good as the account's
 * password for 30 minutes, and logs are copied, shipped and kept far longer than that. The line says
 * who asked, so the operator can have an admin make a link on User Management and hand it over.
 */
export function createLogResetMailer(logger: DomainLogger): ResetMailer {
  return {
    async send(mail) {
      logger.warn(
        { to: mail.to },
        'password reset asked for; SMTP_URL is not set, so no email was sent: an admin can make a link on User Management (Reset password)',
      );
    },
  };
}
