import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { ensurePrivateDir, writePrivateFile } from '../../ops/private-files.ts';
import { renderTemplate, WHATSAPP_TEMPLATES } from './templates.ts';
import type { WhatsAppMessage, WhatsAppProvider } from './whatsapp.provider.ts';

/**
 * The offline provider the demo runs on: each message is a JSON file under `dir` with the template,
 * its parameters and the text the person would read, as the e-mail outbox writes `.eml` files. It
 * refuses what Meta would refuse for a template (a wrong parameter count, an empty parameter), so the
 * demo finds those mistakes before the real API does.
 */
export function createOutboxWhatsApp(dir: string): WhatsAppProvider {
  return {
    name: 'outbox',
    async send(message: WhatsAppMessage) {
      const expected = WHATSAPP_TEMPLATES[message.template].parameters.length;
      if (message.parameters.length !== expected || message.parameters.some((p) => p.trim() === '')) {
        throw new Error(`Modelo ${message.template}: parâmetros inválidos.`);
      }
      if (!/^\d{12,13}$/.test(message.to)) throw new Error('Número de WhatsApp inválido.');
      const id = `outbox.${randomUUID()}`;
      await ensurePrivateDir(dir);
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      await writePrivateFile(
        path.join(dir, `${stamp}-${id.slice(7, 13)}.json`),
        `${JSON.stringify(
          {
            id,
            to: message.to,
            template: message.template,
            parameters: message.parameters,
            text: renderTemplate(message.template, message.parameters),
          },
          null,
          2,
        )}\n`,
      );
      return { id };
    },
  };
}
