import type { Transporter } from 'nodemailer';

/** A file sent with a message; with `cid`, an image the HTML shows (`<img src="cid:…">`). */
export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
  cid?: string;
}

export interface MailMessage {
  /** One address, or several separated by commas. */
  to: string;
  /** Addresses that receive it without being shown to each other (not in any header). */
  bcc?: string;
  subject: string;
  text: string;
  html: string;
  attachments?: MailAttachment[];
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/**
 * An SMTP mailer when SMTP_URL is configured (e.g. smtp://user:pass@host:587), else null.
 * nodemailer loads with the first message: a server that sends none never pays its start time.
 */
export function createMailer(smtpUrl: string | undefined, from: string): Mailer | null {
  if (!smtpUrl) return null;
  let transport: Promise<Transporter> | undefined;
  return {
    async send(message) {
      transport ??= import('nodemailer').then((m) => m.default.createTransport(smtpUrl));
      await (await transport).sendMail({ from, ...message });
    },
  };
}

export const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
