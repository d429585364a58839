import type { Event } from '@passada/core/contracts/events';
import type { PriceResponse } from '@passada/core/contracts/registrations';
import { type APIRequestContext, expect, test } from '@playwright/test';
import {
  addParticipantToCart,
  brl,
  chooseColorAndSize,
  createShopper,
  freshCpf,
  payReviewWithPix,
  productWithStock,
  type Shopper,
  STAFF,
  signIn,
  signInStaff,
} from './fixtures.ts';

const formatCpf = (cpf: string) => cpf.replace(/^(\d{3})(\d{3})(\d{3})(\d{2})$/, '$1.$2.$3-$4');

/** An open event whose kit has two sizes left and a category with places, read from the seeded data. */
async function openEventWithKit(request: APIRequestContext) {
  const events = (await (await request.get('/api/events/')).json()) as Event[];
  for (const event of events) {
    if (!event.inscricoes_abertas) continue;
    const category = event.dias_evento.flatMap((d) => d.categorias).find((c) => c.quantidade_disponivel >= 5);
    const sizes = event.kit.tamanhos.filter((k) => k.quantidade_disponivel >= 3);
    if (category && sizes.length >= 2) return { event, category, sizes: [sizes[0]!, sizes[1]!] as const };
  }
  throw new Error('no open event with places and kit sizes in the demo data');
}

const people = [
  { name: 'Helena Família', cpf: freshCpf(), birth: '1987-03-14', gender: 'Feminino' },
  { name: 'Otávio Família', cpf: freshCpf(), birth: '2001-08-02', gender: 'Masculino' },
];

let shopper: Shopper;

test.beforeAll(async ({ request }) => {
  shopper = await createShopper(request, 'familia');
});

test('a shirt and two participants in one cart, paid with one Pix: one order, two registrations', async ({
  page,
  request,
}) => {
  const { event, category, sizes } = await openEventWithKit(request);
  const { product, entry } = await productWithStock(request, '/api/products/', 2);
  // What the server will charge: the shirt, PAC to the shopper's CEP and each participant's price.
  const quote = (await (
    await request.post('/api/calcular-frete/', {
      data: { cepDestino: '60165121', items: [{ product: product.id, quantity: 1 }] },
    })
  ).json()) as { precoFinalPAC: string };
  const shippingCents = Number(quote.precoFinalPAC.replace(/\./g, '').replace(',', ''));
  let registrationsCents = 0;
  for (const p of people) {
    const price = (await (
      await request.get(`/api/events/${event.id}/preco/?categorias=${category.id}&data_nascimento=${p.birth}`)
    ).json()) as PriceResponse;
    registrationsCents += price.total_centavos;
  }
  const totalCents = Math.round(product.price * 100) + shippingCents + registrationsCents;

  await signIn(page, shopper.token);
  await page.goto(`/produto/${product.id}`);
  await chooseColorAndSize(page, entry.color.name, entry.size.name);
  await page.getByRole('button', { name: 'Adicionar ao carrinho' }).click();
  await expect(page.getByRole('button', { name: /^Carrinho: 1 item/ })).toBeVisible();

  await addParticipantToCart(page, event.id, category.id, people[0]!, sizes[0].tamanho);
  await addParticipantToCart(page, event.id, category.id, people[1]!, sizes[1].tamanho);

  // One cart: the shirt and both registrations, each registration removable.
  await page.getByRole('button', { name: /^Carrinho: 3 itens/ }).click();
  const cartDialog = page.getByRole('dialog', { name: 'Seu carrinho' });
  const inCart = cartDialog.getByRole('list', { name: 'Inscrições no carrinho' });
  await expect(inCart.getByRole('listitem')).toHaveCount(2);
  await expect(inCart).toContainText(`Participante: ${people[0]!.name}`);
  await expect(inCart).toContainText(`Camisa: ${sizes[1].tamanho}`);
  await expect(
    cartDialog.getByRole('button', {
      name: `Remover inscrição de ${people[1]!.name} (${event.nome_evento})`,
    }),
  ).toBeVisible();
  await cartDialog.getByRole('button', { name: 'Fechar pedido' }).click();

  await expect(page).toHaveURL(/\/enderecos$/);
  await page.getByRole('button', { name: 'Continuar' }).click();
  await expect(page).toHaveURL(/\/revisar-pedido$/);
  await expect(page.getByRole('heading', { name: 'Inscrições em eventos' })).toBeVisible();
  await expect(page.getByText(product.name)).toBeVisible();
  await page.getByRole('radio', { name: /^PAC/ }).check();
  await expect(page.getByTestId('total-pedido')).toHaveText(brl(totalCents));
  await payReviewWithPix(page);
  const order = page.getByRole('article');
  await expect(order).toHaveCount(1);
  await expect(order).toContainText(product.name);
  await expect(order).toContainText(brl(totalCents));
  // Paid by Pix: no interest, whatever the registrations add to the total (the API's juros is 0).
  await expect(order.getByText('Juros', { exact: true })).toHaveCount(0);
  const paidRegistrations = order.getByRole('region', { name: 'Inscrições' });
  for (const p of people) await expect(paidRegistrations).toContainText(p.name);
  // The participants' data left the browser with the paid cart.
  const stored = await page.evaluate(() => ({
    cart: localStorage.getItem('cart'),
    registrations: localStorage.getItem('inscricoesCarrinho'),
  }));
  expect(JSON.parse(stored.cart ?? '[]')).toEqual([]);
  expect(JSON.parse(stored.registrations ?? '[]')).toEqual([]);

  // Each participant's registration: number, kit size and the QR for the kit pickup.
  await page.goto(`/eventos/register/${event.id}/ja-me-inscrevi`);
  const numbers: string[] = [];
  for (const [i, p] of people.entries()) {
    await page.getByLabel('CPF do participante').fill(formatCpf(p.cpf));
    await page.getByRole('button', { name: 'Buscar Inscrição' }).click();
    const found = page.getByRole('region', { name: 'Inscrição encontrada' });
    await expect(found.getByText(p.name)).toBeVisible();
    await expect(found.getByText((i === 0 ? sizes[0] : sizes[1]).tamanho, { exact: true })).toBeVisible();
    const qr = found.getByRole('img', { name: /^QR code da inscrição nº \d+$/ });
    await expect(qr).toBeVisible();
    const number = (await qr.getAttribute('alt'))!.replace(/\D/g, '');
    numbers.push(number);
  }
  // The same numbers the order history lists for the order.
  await page.goto('/user/pedidos');
  for (const number of numbers)
    await expect(page.getByRole('article').getByRole('region', { name: 'Inscrições' })).toContainText(
      `Inscrição nº ${number}`,
    );

  // The back office's order detail shows the shirt and both registrations; the shirt still ships.
  const orderId = ((await page.getByRole('article').getAttribute('aria-label')) ?? '').replace(/\D/g, '');
  await signInStaff(page, STAFF.operator, `/painel/pedidos/${orderId}`);
  await expect(page.getByRole('heading', { level: 1, name: `Pedido nº ${orderId}` })).toBeVisible();
  await expect(page.getByRole('listitem').filter({ hasText: product.name })).toBeVisible();
  const staffView = page.getByRole('region', { name: 'Inscrições' });
  for (const number of numbers) await expect(staffView).toContainText(`Inscrição nº ${number}`);
  await expect(staffView).toContainText(people[1]!.name);
  await expect(page.getByRole('button', { name: 'Iniciar separação' })).toBeVisible();
  // Nothing shipped yet: it may be cancelled, registrations included (painel-inscricoes covers it), but
  // cancelling returns the payment, which is for admins: the operator is told so instead of a button.
  await expect(page.getByText('Cancelar e devolver o pagamento é só para administradores.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cancelar e devolver o pagamento' })).toHaveCount(0);
});
