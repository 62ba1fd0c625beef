// Outgoing mail (invitations to a workspace) over SMTP through nodemailer: SMTP_URL names the
// server (smtp:// with STARTTLS when the server offers it, or smtps://; a user and password in
// the URL), MAIL_FROM the sender. Without SMTP_URL the service sends no mail: invitations are
// links to copy.
import { createTransport } from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Sends one message; rejects when the server refused it or could not be reached. */
export type SendMail = (message: MailMessage) => Promise<void>;

export function createMailer(config: { smtpUrl: string | null; mailFrom: string }): SendMail | null {
  if (!config.smtpUrl) return null;
  const transport = createTransport(config.smtpUrl);
  return async (message) => {
    await transport.sendMail({ from: config.mailFrom, ...message });
  };
}
