import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeWhatsApp, startFakeWhatsApp } from '../../test/mocks/fake-whatsapp.ts';
import { createCloudWhatsApp } from './cloud.provider.ts';
import { renderTemplate, templateParameter, WHATSAPP_TEMPLATES } from './templates.ts';
import { WhatsAppApiError } from './whatsapp.provider.ts';

describe('WhatsApp Cloud API provider against the strict fake', () => {
  let fake: FakeWhatsApp;
  const cloud = (token?: string) =>
    createCloudWhatsApp({
      baseUrl: fake.url,
      version: fake.version,
      phoneNumberId: fake.phoneNumberId,
      accessToken: token ?? fake.token,
      timeoutMs: 5000,
    });

  beforeAll(async () => {
    // What the shop submits for approval, exactly: every template with its parameter count.
    fake = await startFakeWhatsApp({
      templates: Object.entries(WHATSAPP_TEMPLATES).map(([name, t]) => ({
        name,
        language: 'pt_BR',
        bodyParameters: t.parameters.length,
      })),
      allowedRecipients: ['5585999990000'],
    });
  });
  afterAll(() => fake.close());

  it('sends each approved template with its body parameters in order, and answers the wamid', async () => {
    const { id } = await cloud().send({
      to: '5585999990000',
      template: 'pix_codigo',
      parameters: ['Maria', 'R$ 273,15', 'o pedido nº 1042', '25/11/2026 às 14:30', '00020126…6304ABCD'],
    });
    expect(id).toMatch(/^wamid\./);
    expect(fake.accepted.at(-1)).toEqual({
      id,
      to: '5585999990000',
      template: 'pix_codigo',
      language: 'pt_BR',
      parameters: ['Maria', 'R$ 273,15', 'o pedido nº 1042', '25/11/2026 às 14:30', '00020126…6304ABCD'],
    });
  });

  it('refuses a wrong parameter count before calling, and the fake refuses an unknown template with 132001', async () => {
    await expect(
      cloud().send({ to: '5585999990000', template: 'pedido_atualizado', parameters: ['Maria'] }),
    ).rejects.toThrow('4 parâmetros esperados, 1 dados');
    // A template not approved (or approved in another language) is what Meta answers 132001 to.
    const res = await fetch(`${fake.url}/${fake.version}/${fake.phoneNumberId}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fake.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        messaging_product: 'whatsapp',
        to: '5585999990000',
        type: 'template',
        template: { name: 'pix_codigo', language: { code: 'en_US' }, components: [] },
      }),
    });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: number } }).error.code).toBe(132001);
  });

  it('turns Graph errors into WhatsAppApiError with the code: token, recipient, parameter format, throughput', async () => {
    const fail = (p: Promise<unknown>) =>
      p.then(
        () => null,
        (e: unknown) => e as WhatsAppApiError,
      );
    const badToken = await fail(
      cloud('EAAJ-errado').send({
        to: '5585999990000',
        template: 'pedido_atualizado',
        parameters: ['a', 'b', 'c', 'd'],
      }),
    );
    expect(badToken).toBeInstanceOf(WhatsAppApiError);
    expect([badToken!.status, badToken!.code]).toEqual([401, 190]);

    const stranger = await fail(
      cloud().send({ to: '5511988887777', template: 'pedido_atualizado', parameters: ['a', 'b', 'c', 'd'] }),
    );
    expect(stranger!.code).toBe(131030);

    const multiline = await fail(
      cloud().send({
        to: '5585999990000',
        template: 'pedido_atualizado',
        parameters: ['a', 'b', 'linha 1\nlinha 2', 'd'],
      }),
    );
    expect(multiline!.code).toBe(132018);
    // What the modules pass through templateParameter is accepted.
    await cloud().send({
      to: '5585999990000',
      template: 'pedido_atualizado',
      parameters: ['a', 'b', templateParameter('linha 1\nlinha 2     fim'), 'd'],
    });
    expect(fake.accepted.at(-1)!.parameters[2]).toBe('linha 1 linha 2 fim');

    fake.failOnce(130429);
    const throttled = await fail(
      cloud().send({ to: '5585999990000', template: 'pedido_atualizado', parameters: ['a', 'b', 'c', 'd'] }),
    );
    expect([throttled!.code, throttled!.details]).toEqual([
      130429,
      'Cloud API message throughput has been reached.',
    ]);
  });

  it('renders the text people read from the approved body', () => {
    expect(renderTemplate('pedido_atualizado', ['Maria', '1042', 'enviado', 'https://x'])).toBe(
      'Olá, Maria! Pedido nº 1042: enviado. Acompanhe em https://x',
    );
  });
});
