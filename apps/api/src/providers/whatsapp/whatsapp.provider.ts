import type { WhatsAppTemplateName } from './templates.ts';

/** One template message to one person (docs/decisions/0045). */
export interface WhatsAppMessage {
  /** The number in international format, digits only: 55 + DDD + number (`5585999990000`). */
  to: string;
  template: WhatsAppTemplateName;
  /** The body parameters `{{1}}`, `{{2}}`, … in order, already formatted for people. */
  parameters: string[];
  /**
   * When the person ticked the opt-in this message relies on (the order's or registration's
   * `whatsapp_consentimento_em`): a consent given after the number asked to stop sends again
   * (docs/decisions/0050). Absent: any opt-out of the number blocks it.
   */
  consentAt?: Date | null;
}

/**
 * Sends WhatsApp messages. `outbox` writes them as JSON under DATA_DIR/outbox/whatsapp (default,
 * offline); `cloud` calls Meta's WhatsApp Business Cloud API. Both answer the message id.
 */
export interface WhatsAppProvider {
  readonly name: 'outbox' | 'cloud';
  send(message: WhatsAppMessage): Promise<{ id: string }>;
}

/** An error answered by the Graph API: its `code` says what went wrong (never the title). */
export class WhatsAppApiError extends Error {
  override name = 'WhatsAppApiError';
  constructor(
    readonly status: number,
    readonly code: number | undefined,
    readonly details: string,
  ) {
    super(`${status}${code !== undefined ? ` #${code}` : ''}: ${details}`);
  }
}
