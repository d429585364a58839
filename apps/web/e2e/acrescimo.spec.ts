import { expect, test } from '@playwright/test';
import { brl, expectNoSeriousAxe, outboxMails, paidProductOrder, STAFF, signInStaff } from './fixtures.ts';

test('a buyer adds a unit to a paid order before shipping, pays it by Pix, and staff see it in the same parcel', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const { product, entry, shopper, orderId } = await paidProductOrder(request, 'acresc', 1, 3);

  await page.addInitScript((t) => localStorage.setItem('token', t), shopper.token);
  await page.goto('/user/pedidos');
  const card = page.getByRole('article', { name: `Pedido ${orderId}` });
  const adding = card.getByRole('region', { name: `Acrescentar ao pedido ${orderId}` });
  await adding.getByRole('button', { name: 'Acrescentar itens ao pedido' }).click();
  await expect(adding.getByRole('combobox', { name: 'Produto a acrescentar' })).toHaveValue(
    String(product.id),
  );
  await adding
    .getByRole('combobox', { name: 'Cor e tamanho' })
    .selectOption({ label: `${entry.color.name}, ${entry.size.name}` });
  await adding.getByRole('spinbutton', { name: 'Unidades a acrescentar' }).fill('2');
  // Today's price of two units, and no shipping: they go in the same parcel.
  const unitCents = Math.round((entry.preco ?? product.price) * 100);
  await expect(adding.getByText(/Total do acréscimo:/)).toHaveText(
    new RegExp(`Total do acréscimo: ${brl(2 * unitCents).source} \\(sem frete\\)`),
  );
  await expectNoSeriousAxe(page, `#pedido-${orderId}`);
  await adding.getByRole('button', { name: 'Pagar o acréscimo por Pix' }).click();
  const pix = adding.getByRole('region', { name: 'Pagamento com Pix' });
  await expect(pix.getByRole('img', { name: /QR Code/ })).toBeVisible();
  await pix.getByRole('button', { name: 'Simular pagamento' }).click();
  // The Pix panel's own status goes with the panel once the addition is paid.
  const paid = adding.getByRole('status').filter({ hasText: 'Acréscimo pago' });
  await expect(paid).toContainText(
    new RegExp(`Acréscimo pago \\(pedido nº (\\d+)\\): vai na mesma caixa do pedido nº ${orderId}`),
    { timeout: 30_000 },
  );
  const additionId = Number(/pedido nº (\d+)\)/.exec((await paid.textContent()) ?? '')?.[1]);

  // The addition is an order of its own that names the first; the first lists it.
  const addition = page.getByRole('article', { name: `Pedido ${additionId}` });
  await expect(addition).toContainText(`Acréscimo ao pedido nº ${orderId}: vai na mesma caixa.`);
  await expect(addition.getByRole('list', { name: 'Itens' })).toContainText(
    new RegExp(`2 × ${brl(unitCents).source}${brl(2 * unitCents).source}`),
  );
  await expect(card).toContainText(`Vai junto nesta caixa: acréscimo nº ${additionId}.`);
  await expect(addition.getByRole('button', { name: 'Acrescentar itens ao pedido' })).toHaveCount(0);
  await expectNoSeriousAxe(page, `#pedido-${additionId}`);

  // Staff: the first order names the addition; the addition moves with it.
  const staff = await page.context().newPage();
  await staff.setViewportSize({ width: 1280, height: 900 });
  await signInStaff(staff, STAFF.admin, `/painel/pedidos/${orderId}`);
  const parcel = staff.getByRole('heading', { name: 'Acréscimos nesta caixa' }).locator('..');
  await expect(parcel).toContainText(`Pedido nº ${additionId}: 2 unidades, Pago`);
  await expect(staff.getByText(`Acréscimo pago (pedido nº ${additionId})`)).toBeVisible();
  await expectNoSeriousAxe(staff);
  await parcel.getByRole('link', { name: `Pedido nº ${additionId}` }).click();
  await expect(staff.getByText(/Acréscimo pago pelo cliente antes do envio: vai na caixa do/)).toBeVisible();
  await expect(staff.getByRole('link', { name: `pedido nº ${orderId}` })).toBeVisible();
});

test('staff propose an addition at 1280 px; the buyer opens the e-mail’s link at 390 px and pays it by Pix', async ({
  page,
  request,
}) => {
  const { product, entry, shopper, orderId } = await paidProductOrder(request, 'proposta', 1, 3);

  const staff = await page.context().newPage();
  await staff.setViewportSize({ width: 1280, height: 900 });
  await signInStaff(staff, STAFF.admin, `/painel/pedidos/${orderId}`);
  const form = staff.getByRole('form', { name: 'Propor acréscimo ao cliente' });
  await expect(form.getByRole('combobox', { name: 'Produto a acrescentar' })).toHaveValue(String(product.id));
  await form
    .getByRole('combobox', { name: 'Cor e tamanho' })
    .selectOption({ label: `${entry.color.name}, ${entry.size.name}` });
  await form.getByRole('spinbutton', { name: 'Unidades a acrescentar' }).fill('2');
  const unitCents = Math.round((entry.preco ?? product.price) * 100);
  await expect(form.getByText(/Preço de hoje/)).toHaveText(
    new RegExp(`Preço de hoje: ${brl(2 * unitCents).source}`),
  );
  await expectNoSeriousAxe(staff);
  await form.getByRole('button', { name: 'Enviar proposta por e-mail' }).click();
  await expect(form.getByRole('status')).toContainText(`Proposta enviada para ${shopper.email}`);
  await expect(staff.getByText(/^Acréscimo proposto ao cliente por e-mail: 2×/)).toBeVisible();

  // The e-mail's link, opened by the buyer on a phone.
  let link = '';
  await expect
    .poll(
      () => {
        const mail = outboxMails(shopper.email).find((m) =>
          m.includes(`acréscimo ao seu pedido nº ${orderId}`),
        );
        link = /https?:\/\/\S+\/user\/pedidos\?acrescentar=\S+#pedido-\d+/.exec(mail ?? '')?.[0] ?? '';
        return link;
      },
      { timeout: 30_000 },
    )
    .not.toBe('');
  const buyer = page;
  await buyer.setViewportSize({ width: 390, height: 844 });
  await buyer.addInitScript((t) => localStorage.setItem('token', t), shopper.token);
  const url = new URL(link);
  await buyer.goto(url.pathname + url.search + url.hash);
  const adding = buyer
    .getByRole('article', { name: `Pedido ${orderId}` })
    .getByRole('region', { name: `Acrescentar ao pedido ${orderId}` });
  await expect(adding.getByText(/Total do acréscimo:/)).toHaveText(
    new RegExp(`Total do acréscimo: ${brl(2 * unitCents).source} \\(sem frete\\)`),
  );
  await expectNoSeriousAxe(buyer, `#pedido-${orderId}`);
  await adding.getByRole('button', { name: 'Pagar o acréscimo por Pix' }).click();
  await adding
    .getByRole('region', { name: 'Pagamento com Pix' })
    .getByRole('button', { name: 'Simular pagamento' })
    .click();
  await expect(adding.getByRole('status').filter({ hasText: 'Acréscimo pago' })).toContainText(
    `vai na mesma caixa do pedido nº ${orderId}`,
    { timeout: 30_000 },
  );
});
