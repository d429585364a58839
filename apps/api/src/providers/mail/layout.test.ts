import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Order } from '@passada/core/contracts/orders';
import { afterAll, describe, expect, it } from 'vitest';
import { passwordResetMail } from '../../modules/accounts/account-mail.ts';
import { demoOrder } from '../../modules/orders/mail-previews.ts';
import { orderConfirmationMail, orderStatusMail } from '../../modules/orders/order-mail.ts';
import { createOutboxMailer } from './index.ts';
import { brandedMail, textToHtml } from './layout.ts';

const brand = { storeName: 'Passada', publicUrl: 'https://passada.com.br' };
const env = { STORE_NAME: 'Passada', publicUrl: 'https://passada.com.br' };

/** The back office's demo order, shipped, with a name to escape: as the orders module answers it. */
const order: Order = {
  ...demoOrder,
  id: 42,
  status: 'enviado',
  items: [{ ...demoOrder.items[0]!, product_name: 'Camiseta Brisa <Dry>' }, ...demoOrder.items.slice(1)],
  address: { ...demoOrder.address!, full_name: 'Maria da Silva', phone: '(85) 99999-9999' },
};
const buyer = { name: 'Maria da Silva', email: 'maria@example.com' };

describe('the e-mail layout', () => {
  it('turns paragraphs, "- " lists and addresses into HTML, escaping everything', () => {
    const html = textToHtml(
      'Olá, <Maria> & cia!\n\nItens:\n- um\n- dois\n\nVeja https://passada.com.br/a?b=1&c=2',
    );
    expect(html).toContain('<p style="margin:0 0 16px;">Olá, &lt;Maria&gt; &amp; cia!</p>');
    expect(html).toContain('<p style="margin:0 0 4px;">Itens:</p><ul');
    expect(html).toContain('<li>um</li><li>dois</li>');
    expect(html).toContain(
      '<a href="https://passada.com.br/a?b=1&amp;c=2">https://passada.com.br/a?b=1&amp;c=2</a>',
    );
    expect(html).not.toContain('<Maria>');
  });

  it('wraps every message in the brand layout, safe in light and dark mode, with the text part unchanged', async () => {
    const message = passwordResetMail({
      env,
      to: 'maria@example.com',
      name: 'Maria',
      link: 'https://passada.com.br/login/redefinir-senha?token=abc',
      ttlMinutes: 60,
    });
    const branded = await brandedMail(message, brand);
    expect(branded.text).toBe(message.text);
    expect(branded.html).toContain('<meta name="color-scheme" content="light dark">');
    expect(branded.html).toContain('@media (prefers-color-scheme: dark)');
    expect(branded.html).toMatch(/<html lang="pt-BR"/);
    // MJML's output: tables for every mail program, the card at 600 px.
    expect(branded.html).toContain('role="presentation"');
    expect(branded.html).toContain('max-width:600px');
    expect(branded.html).toContain('href="https://passada.com.br/login/redefinir-senha?token=abc"');
    // The preheader is the first line after the greeting.
    expect(branded.html).toMatch(/display:none[^>]*>Recebemos um pedido para redefinir a senha/);
  });

  it('renders the order confirmation: items as a table with pictures, a button to the order, withdrawal on the site', async () => {
    const drawing = '/api/media/products/camiseta-frente-preto.0123456789.svg';
    const message = orderConfirmationMail({
      env,
      order: {
        ...order,
        status: 'pago',
        items: [{ ...order.items[0]!, product_image: drawing }, ...order.items.slice(1)],
      },
      buyer,
      shipping: { businessDays: 5, latestDate: '2026-12-01' },
    });
    // The text part keeps the list, and sends the buyer to the site to withdraw, never to a reply.
    expect(message.text).toContain('Recebemos o pagamento do seu pedido nº 42');
    expect(message.text).toContain('- 2 × Camiseta Brisa <Dry> (Preto, M): R$');
    expect(message.text).toContain('Total pago: R$');
    expect(message.text).toContain(
      'Desista pelo próprio site, no pedido: https://passada.com.br/user/pedidos#pedido-42',
    );
    expect(message.text.toLowerCase()).not.toContain('responda a este e-mail');
    const { html } = await brandedMail(message, brand);
    // The items once, as a table: the drawing's smallest WebP copy (mail programs draw no SVG), alt the name.
    expect(html).not.toContain('<li>2 × Camiseta Brisa');
    expect(html).toContain(
      '<img src="https://passada.com.br/api/media/products/camiseta-frente-preto.0123456789-200.webp" width="64" height="64" alt="Camiseta Brisa &lt;Dry&gt;"',
    );
    expect(html).toContain('Preto, M · 2 ×');
    expect(html).toContain('<img src="https://passada.com.br/api/media/products/bone.webp"');
    expect(html).toMatch(/Total pago: R\$/);
    // The button to the order, and the shop's mark in the header.
    expect(html).toMatch(
      /<a\s+href="https:\/\/passada.com.br\/user\/pedidos#pedido-42"[^>]*>\s*Ver meu pedido\s*</,
    );
    expect(html).toContain(
      '<img src="https://passada.com.br/api/media/marca/logo-email.png" width="32" height="32" alt=""',
    );
  });

  it('renders the shipping e-mail with the tracking link', async () => {
    const message = orderStatusMail({ env, order, buyer })!;
    expect(message.text).toContain('Código de rastreio: AA123456785BR');
    const { html } = await brandedMail(message, brand);
    expect(html).toContain(`<a href="${order.rastreio_url!.replaceAll('&', '&amp;')}">`);
  });
});

describe('the outbox', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'passada-outbox-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes text and HTML alternatives, and an image by Content-ID inside the HTML part', async () => {
    const mailer = createOutboxMailer(dir, 'Passada <contato@passada.com.br>', brand);
    const png = Buffer.from('89504e470d0a1a0a', 'hex');
    await mailer.send({
      to: 'maria@example.com',
      subject: 'Inscrição confirmada',
      text: 'Olá, Maria!\n\nSua inscrição está confirmada.',
      html: '<p>Sua inscrição está confirmada.</p><img src="cid:qr@passada" alt="QR code">',
      attachments: [{ filename: 'qr.png', content: png, contentType: 'image/png', cid: 'qr@passada' }],
    });
    const [file] = readdirSync(dir);
    const raw = readFileSync(path.join(dir, file!), 'utf8');
    expect(raw).toMatch(/Content-Type: multipart\/alternative/);
    expect(raw).toMatch(/Content-Type: text\/plain; charset=utf-8/);
    expect(raw).toMatch(/Content-Type: multipart\/related; type="text\/html"/);
    expect(raw).toMatch(/Content-Type: image\/png; name=qr\.png/);
    expect(raw).toContain('Content-ID: <qr@passada>');
    expect(raw).toContain(png.toString('base64'));
    expect(raw).not.toContain('data:image');
  });
});
