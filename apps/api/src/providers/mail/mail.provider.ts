/** A file sent with a message; with `cid`, the HTML shows it inline as `<img src="cid:…">`. */
export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
  /**
   * Content-ID the HTML refers to. Images that must show (the kit-pickup QR) go this way: Gmail and
   * others do not show `data:` images.
   */
  cid?: string;
}

export interface MailMessage {
  to: string;
  subject: string;
  /** The text part, always sent; also what the HTML is built from when `html` is absent. */
  text: string;
  /** The body's HTML, placed inside the shop's layout (layout.ts); absent, it is built from `text`. */
  html?: string;
  /**
   * The one thing the person is asked to do, drawn as the shop's button under the body (the text part
   * should already carry the same address: the layout leaves the text as the module wrote it).
   */
  action?: { label: string; url: string };
  attachments?: MailAttachment[];
}

/**
 * Sends e-mail. `outbox` writes .eml files (default, offline); `smtp` uses nodemailer. Both send a text
 * part and an HTML part in the shop's layout.
 */
export interface MailProvider {
  readonly name: 'outbox' | 'smtp';
  send(message: MailMessage): Promise<void>;
}

/**
 * One kind of message shown in the back office's preview (`/painel/mensagens`) with demo data, and
 * rendered by its test: the modules build it with the same function their job sends.
 */
export interface MailPreview {
  /** Stable name, e.g. `pedido.confirmado`. */
  kind: string;
  /** What staff read in the list, in Portuguese. */
  label: string;
  build(env: { STORE_NAME: string; publicUrl: string }): Promise<MailMessage[]> | MailMessage[];
}
