import { MessagePreviewListSchema } from '@passada/core/contracts/painel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEvent } from '../../test/factories/events.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { readQr } from '../../test/factories/registrations.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

/** "R$ 273,15" as formatBRL writes it (a no-break space after the sign). */
const brl = (amount: string) => `R$\u00a0${amount}`;

/**
 * What each message must say, in its text part and its HTML part alike: the facts a customer acts
 * on (numbers, amounts, links, deadlines). Every kind the shop sends is listed: a new one fails here
 * until its key text is written down.
 */
const KEY_TEXT: Record<string, string[]> = {
  'pedido.confirmado': [
    'Recebemos o pagamento do seu pedido nº 1042',
    // The items: a list in the text part, a table with pictures in the HTML part; the same facts.
    'Camiseta Brisa Dry',
    brl('199,80'),
    'Boné Sol',
    brl('49,90'),
    `Subtotal: ${brl('249,70')}`,
    `: ${brl('23,45')}`,
    `Total pago: ${brl('273,15')} (Pix)`,
    'CEP 60165-121',
    'Direito de arrependimento',
    'Desista pelo próprio site, no pedido:',
  ],
  'pedido.acrescimo-proposto': [
    `preparou um acréscimo ao seu pedido nº 1042, que ainda não foi enviado: 1× Camiseta Brisa Dry (Preto, G), por ${brl('99,90')} (preço de hoje), sem frete`,
    '/user/pedidos?acrescentar=1042&produto=1&cor=1&tamanho=3&unidades=1#pedido-1042',
    'Nada foi cobrado',
  ],
  'pedido.em-separação': ['Seu pedido nº 1042 está sendo separado e embalado.'],
  'pedido.enviado': [
    'Seu pedido nº 1042 foi enviado pelos Correios (PAC). Código de rastreio: AA123456785BR.',
    'https://rastreamento.correios.com.br/app/index.php?objetos=AA123456785BR',
  ],
  'pedido.entregue': ['Seu pedido nº 1042 foi entregue.'],
  'pedido.cancelado': [`O valor de ${brl('273,15')} será devolvido por Pix para a conta que pagou.`],
  'devolucao.solicitada': ['Devolução nº 77 do pedido nº 1042', 'vamos enviar o código de postagem'],
  'devolucao.codigo-enviado': ['código de postagem 123456789', 'Prazo para postar: até 05/12/2026'],
  'devolucao.reembolsada': [
    `1 × Camiseta Brisa Dry (Preto, M): ${brl('99,90')}`,
    `Pedimos a devolução de ${brl('99,90')}`,
  ],
  'pagamento.devolvido-pix': [
    `Recebemos o seu Pix de ${brl('273,15')}`,
    'Os itens esgotaram antes da confirmação do Pix.',
    `devolução do valor integral de ${brl('273,15')} pelo próprio Pix`,
  ],
  'pagamento.estornado-cartao': [
    `Recebemos o pagamento de ${brl('109,90')} no seu cartão de crédito`,
    `estorno do valor integral de ${brl('109,90')} no mesmo cartão`,
  ],
  'inscricao.confirmada': [
    'Evento: Corrida do Sol Nascente',
    'Data: 13/12/2026 às 05:30',
    'Participante: João Exemplo (CPF ***.644.788-**)',
    `Desconto (cupom CORRIDA20): −${brl('20,00')}`,
    `Valor: ${brl('109,90')}`,
    'Inscrição nº 3021',
    'Retirada do kit: Loja Passada, Av. Beira Mar, 100, Fortaleza',
  ],
  'inscricao.cancelada': [
    'em Corrida do Sol Nascente foi cancelada.',
    'Motivo: Pedido do participante',
    `Pedimos a devolução do valor integral de ${brl('109,90')} por Pix`,
  ],
  'troca.enviada': [
    'Troca nº 77 do pedido nº 1042',
    '1 × Camiseta Brisa Dry (Preto, G)',
    'A troca foi enviada com o código de rastreio AA987654325BR.',
  ],
  'entrega.saiu-para-entrega': [
    'Seu pedido nº 1042 saiu para entrega hoje. Código de rastreio: AA123456785BR.',
  ],
  'nota.nfe': [
    'A nota fiscal',
    'de seu pedido nº 1042 foi emitida.',
    'DANFE (PDF): ',
    '/api/notas/1/exemplo/nota.xml',
    'SEM VALOR FISCAL',
  ],
  'inscricao.transferencia-convite': [
    'A inscrição nº 3021 em Corrida do Sol Nascente está sendo transferida para quem usa este e-mail, a pedido de quem a tem hoje (nome na inscrição: João Exemplo).',
    '/inscricoes/transferencia/exemplo-de-link',
    `A taxa de transferência do evento é de ${brl('20,00')}.`,
    'O link vale até 01/12/2026, 12:00.',
  ],
  'inscricao.transferida': [
    'A transferência da sua inscrição nº 3021 em Corrida do Sol Nascente para Ana Exemplo (CPF ***.982.247-**) foi concluída.',
    'O QR code que você recebeu não vale mais',
  ],
  'inscricao.indicacao': [
    `${brl('21,98')} da sua inscrição nº 3021 estão voltando na forma de pagamento usada`,
    'Corrida do Sol Nascente',
  ],
  'inscricao.link-pessoal': [
    '/inscricoes/link/exemplo-de-link',
    'Os links enviados antes deste não valem mais.',
  ],
  'lista-espera.entrou': [
    'Você entrou na lista de espera de Corrida do Sol Nascente (10 km), na posição 3.',
    '/eventos/lista-espera/exemplo-de-link',
  ],
  'lista-espera.oferta': [
    'Uma vaga em Corrida do Sol Nascente (10 km) foi liberada e está reservada para você até 02/12/2026, 12:00.',
    'Evento: Corrida do Sol Nascente, 13/12/2026 às 05:30',
  ],
  'sorteio.inscrito': [
    'Sua inscrição no sorteio de Corrida do Sol Nascente (10 km) foi registrada com o número 1207.',
    'As inscrições no sorteio vão até 30/11/2026, 20:00',
  ],
  'sorteio.sorteado': [
    'Você foi sorteado(a) em Corrida do Sol Nascente (10 km). Sua vaga está reservada até 02/12/2026, 12:00.',
    '/eventos/register/7',
  ],
  'sorteio.nao-sorteado': [
    'sua inscrição (número 1207) não ficou entre as vagas desta vez',
    'você pode ser sorteado(a) depois',
  ],
  'conta.redefinir-senha': ['Recebemos um pedido para redefinir a senha', 'Ele vale por 60 minutos'],
  'conta.link-de-acesso': ['a entrada foi bloqueada', 'Ele vale por 15 minutos'],
  'conta.email-alterado': ['foi trocado para m*********@example.com'],
  'conta.senha-alterada': ['a senha da sua conta na Passada foi alterada'],
};

/** The HTML part as a reader sees its characters (entities the layout escapes decoded). */
const readable = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&amp;', '&')
    .replace(/[ \t\n]+/g, ' ');

describe('painel: every message the shop sends, previewed with demo data', () => {
  let t: TestApp;
  let admin: TestStaff;
  let stock: TestStaff;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createStaffAndLogin(t.app, 'admin');
    stock = await createStaffAndLogin(t.app, 'estoque');
  });
  afterAll(() => t.close());

  const previews = async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/painel/mensagens/', headers: admin.headers });
    expect(res.statusCode, res.body).toBe(200);
    return MessagePreviewListSchema.parse(res.json());
  };

  it('renders every order, payment, refund, shipping, return, registration and account e-mail with its key text in both parts', async () => {
    const list = await previews();
    expect(list.map((p) => p.tipo).sort()).toEqual(Object.keys(KEY_TEXT).sort());
    for (const preview of list) {
      expect(preview.mensagens.length, preview.tipo).toBeGreaterThan(0);
      for (const message of preview.mensagens) {
        expect(message.assunto, preview.tipo).not.toBe('');
        expect(message.html, preview.tipo).toContain('<meta name="color-scheme" content="light dark">');
        expect(message.html, preview.tipo).toContain('@media (prefers-color-scheme: dark)');
        const html = readable(message.html);
        for (const key of KEY_TEXT[preview.tipo]!) {
          expect(message.texto, `${preview.tipo}: texto`).toContain(key);
          expect(html, `${preview.tipo}: HTML`).toContain(key);
        }
      }
    }
  });

  it('sends the registration confirmation to the participant and to the account holder, each with the QR ticket attached', async () => {
    const confirmation = (await previews()).find((p) => p.tipo === 'inscricao.confirmada')!;
    expect(confirmation.mensagens.map((m) => m.para)).toEqual(['joao@example.com', 'maria@example.com']);
    // The participant's personal link: the address in the text part, the shop's button in the HTML
    // (never the bare address there); the account holder gets neither.
    const [runner, holder] = confirmation.mensagens;
    const link = `${t.env.publicUrl}/inscricoes/link/exemplo-de-link`;
    expect(runner!.texto).toContain(link);
    expect(runner!.html).toMatch(
      new RegExp(
        `<a\\s+href="${link.replaceAll('.', '\\.')}"[^>]*>\\s*Cancelar ou transferir a inscrição\\s*<`,
      ),
    );
    expect(runner!.html).not.toContain(`>${link}<`);
    expect(holder!.texto).not.toContain(link);
    expect(holder!.html).not.toContain(link);
    for (const message of confirmation.mensagens) {
      expect(message.anexos).toEqual([{ nome: 'inscricao-3021-qrcode.png', tipo: 'image/png' }]);
      expect(message.texto).toContain('O QR code da retirada do kit segue anexo.');
      expect(message.html).not.toContain('cid:');
      const image = /src="(data:image\/png;base64,[^"]+)"/.exec(message.html)?.[1];
      const code = await readQr(image!);
      // The demo ticket names the demo registration but is not signed with the shop's secret: it never
      // opens a real registration at the kit desk.
      expect(code).toMatch(/^PASSADA-KIT:3021\.7\.previa-sem-valor-na-retirada\./);
      const event = await makeEvent(t.app.db);
      const desk = await t.app.inject({
        method: 'POST',
        url: '/api/painel/checkin/preview/',
        headers: admin.headers,
        payload: { evento: event.id, codigo: code },
      });
      expect(desk.statusCode).toBe(400);
      expect(desk.json().detail ?? desk.body).toContain('a assinatura não confere');
    }
  });

  it('is for staff with the team permission only', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/painel/mensagens/', headers: stock.headers });
    expect(res.statusCode).toBe(403);
  });
});
