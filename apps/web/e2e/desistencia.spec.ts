import { expect, test } from '@playwright/test';
import { brl, expectNoSeriousAxe, paidProductOrder, STAFF, signInStaff } from './fixtures.ts';

test('a buyer withdraws one unit of a paid order before shipping and sees the refund; staff see it and refund a part more', async ({
  page,
  request,
}) => {
  const { product, entry, shopper, orderId } = await paidProductOrder(request, 'desist', 2, 3);

  await page.addInitScript((t) => localStorage.setItem('token', t), shopper.token);
  await page.goto('/user/pedidos');
  const card = page.getByRole('article', { name: `Pedido ${orderId}` });
  // Where the order stands, and each line's total beside its unit price and quantity.
  const steps = card.getByRole('list', { name: `Andamento do pedido ${orderId}` }).getByRole('listitem');
  await expect(steps).toHaveText([
    /^Pago\d{2}\/\d{2}\/\d{4}$/,
    'Em separaçãoa seguir',
    'Enviadoa seguir',
    'Entreguea seguir',
  ]);
  await expect(steps.first()).toHaveAttribute('aria-current', 'step');
  const unitCents = Math.round(product.price * 100);
  await expect(card.getByRole('list', { name: 'Itens' })).toContainText(
    new RegExp(`2 × ${brl(unitCents).source}${brl(2 * unitCents).source}`),
  );
  // The 7-day right is said above the forms, which open on request.
  await expect(card.getByRole('heading', { name: 'Direito de arrependimento: 7 dias' })).toBeVisible();
  await expect(card.getByRole('form', { name: 'Desistir da compra' })).toHaveCount(0);
  await card.getByRole('button', { name: 'Quero desistir' }).click();
  const form = card.getByRole('form', { name: 'Desistir da compra' });
  await form.getByLabel(`Quantidade de ${product.name} (${entry.color.name}, ${entry.size.name})`).fill('1');
  await form.getByRole('button', { name: 'Desistir dos itens escolhidos' }).click();
  await expect(card.getByRole('status')).toContainText(/Desistência nº \d+ registrada/);
  const unit = new RegExp(`R\\$\\s${product.price.toFixed(2).replace('.', ',')}`);
  await expect(card.getByText(new RegExp(`Reembolsado ${unit.source}`)).first()).toBeVisible();
  await expectNoSeriousAxe(page, `#pedido-${orderId}`);

  const staff = await page.context().newPage();
  await signInStaff(staff, STAFF.admin, '/painel/devolucoes');
  const withdrawal = staff
    .getByRole('article', { name: /^Desistência da compra nº \d+$/ })
    .filter({ hasText: `Pedido nº ${orderId} ·` });
  await expect(withdrawal).toContainText('Reembolsada');

  // The order page lists the refund and takes a further part of it.
  await staff.goto(`/painel/pedidos/${orderId}`);
  const refunds = staff.getByRole('region', { name: 'Reembolsos' });
  await expect(refunds.getByRole('cell', { name: 'Regra da loja (cliente)' })).toBeVisible();
  await expect(refunds.getByTestId('refunds-refunded')).toHaveText(unit);
  await expectNoSeriousAxe(staff);
  staff.on('dialog', (d) => void d.accept());
  await refunds.getByRole('textbox', { name: 'Valor a reembolsar (R$)' }).fill('1,00');
  await refunds.getByRole('textbox', { name: 'Motivo do reembolso' }).fill('Atraso na separação');
  await refunds.getByRole('button', { name: 'Reembolsar parte' }).click();
  await expect(refunds.getByRole('status')).toContainText('Reembolso de R$');
  await expect(refunds.getByRole('row')).toHaveCount(3);
});
