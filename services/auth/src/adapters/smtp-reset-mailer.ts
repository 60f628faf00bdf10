import type { Transporter } from 'nodemailer';
import type { ResetMail, ResetMailer } from '../domain/ports';

const timeFormat = new Intl.DateTimeFormat('en-GB', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'UTC',
});

/** The reset email's subject and text; plain text, so every mail client shows the link as sent. */
export function resetMailContent(mail: ResetMail): { subject: string; text: string } {
  return {
    subject: 'Reset your Flatship password',
    text: [
      `Hello ${mail.name},`,
      '',
      'Someone (hopefully you) asked to reset the password of your Flatship account.',
      'Open this link to choose a new password:',
      '',
      mail.link,
      '',
      `The link works once and expires at ${timeFormat.format(mail.expiresAt)} UTC.`,
      'Choosing a new password signs you out everywhere else.',
      'If you did not ask for this, ignore this email: your password stays as it is.',
    ].join('\n'),
  };
}

/**
 * Sends reset emails through the SMTP server of SMTP_URL (smtp://user:pass@host:587, smtps://… for TLS). The mail
 * library is loaded by the first email, not at every start of the service.
 */
export function createSmtpResetMailer(opts: { smtpUrl: string; from: string }): ResetMailer & { close(): void } {
  let transport: Promise<Transporter> | undefined;
  return {
    async send(mail) {
      const { subject, text } = resetMailContent(mail);
      transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(opts.smtpUrl));
      await (await transport).sendMail({ from: opts.from, to: mail.to, subject, text });
    },
    close: () => void transport?.then((t) => t.close()),
  };
}
