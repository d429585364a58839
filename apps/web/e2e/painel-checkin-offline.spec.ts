import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { freshCpf, kitTicket, paidRegistration, STAFF, signInStaff } from './fixtures.ts';

/**
 * Two kit desks lose the network (docs/decisions/0063): each decides from its local copy, both hand
 * out the same kit, and when the network returns the second to send is told who had it first; the
 * ledger keeps one pickup. The first handed it to the person the runner authorised, who was revoked
 * meanwhile: that desk is told so, with the name.
 */
test('two desks offline hand out the same kit: on reconnecting the conflict is reported, one pickup in the ledger', async ({
  browser,
  request,
}) => {
  const name = 'Jurema Sem Rede';
  const { event, id, cpf, shopper } = await paidRegistration(request, {
    nome_completo: name,
    cpf: freshCpf(),
  });
  const ticket = await kitTicket(request, shopper, cpf, event.id);
  // The runner authorises someone to collect the kit, and the organiser asks an item at pickup
  // (decision 0063, later): the desk's card shows both, offline too.
  const runner = await request.post('/api/token-auth/', {
    data: { username: shopper.username, password: shopper.password },
  });
  const runnerAuth = { authorization: `Token ${(await runner.json()).token}` };
  const delegate = await request.put(`/api/inscricoes/${id}/retirada-autorizada/`, {
    headers: runnerAuth,
    data: { nome_completo: 'Dorival Vizinho', cpf: freshCpf() },
  });
  expect(delegate.status()).toBe(200);
  const staff = await request.post('/api/painel/auth/login/', { data: STAFF.admin });
  const staffAuth = { authorization: `Token ${(await staff.json()).token}` };
  const rulesUrl = `/api/painel/events/${event.id}/pos-venda/`;
  const { texto: _, ...rules } = await (await request.get(rulesUrl, { headers: staffAuth })).json();
  const saved = await request.put(rulesUrl, {
    headers: staffAuth,
    data: { ...rules, item_retirada: '1 kg de alimento não perecível', item_unidade: 'kg' },
  });
  expect(saved.status()).toBe(200);
  const path = `/painel/checkin/${event.id}`;

  async function openDesk(who: { email: string; password: string }, desk: string) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signInStaff(page, who, path);
    const status = page.getByRole('region', { name: 'Check-in sem rede' });
    await status.getByLabel('Nome desta mesa').fill(desk);
    await expect(status).toContainText(/Cópia local: \d+ inscrições, atualizada há menos de 1 min\./);
    return { context, page, status };
  }
  const a = await openDesk(STAFF.operator, 'Mesa A');
  const b = await openDesk(STAFF.manager, 'Mesa B');
  // Installable: the desk's manifest, and its worker controls only the desk's pages.
  await expect(a.page.locator('link[rel="manifest"]')).toHaveAttribute('href', '/painel-checkin.webmanifest');
  expect(await a.page.evaluate(async () => (await navigator.serviceWorker.ready).scope)).toMatch(
    /\/painel\/checkin\/$/,
  );

  // Desk A offline: a forged code is refused from the copy, the real one hands the kit out.
  await a.context.setOffline(true);
  await expect(a.status).toContainText('Sem rede');
  const code = a.page.getByLabel('Código do QR code (leitor ou colado)');
  await code.fill(ticket.code.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')));
  await a.page.getByRole('button', { name: 'Ver inscrição', exact: true }).click();
  await expect(a.page.getByRole('alert')).toContainText('QR code inválido');
  await code.fill(ticket.code);
  await a.page.getByRole('button', { name: 'Ver inscrição', exact: true }).click();
  const cardA = a.page.getByRole('region', { name });
  await expect(cardA).toContainText(
    /Retirada autorizada para Dorival Vizinho, CPF \*{3}\.\*{3}\.\*{3}-\d{2}\./,
  );
  await expect(cardA.getByLabel('Quantidade trazida (kg)')).toBeVisible();
  const axe = await new AxeBuilder({ page: a.page })
    .include('section[aria-labelledby="checkin-offline-name"]')
    .analyze();
  expect(
    axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id),
  ).toEqual([]);
  await cardA.getByLabel('Dorival Vizinho (autorizada)').check();
  await cardA.getByLabel('Quantidade trazida (kg)').fill('2');
  await cardA.getByRole('button', { name: 'Confirmar entrega do kit' }).click();
  await expect(a.status).toContainText('1 retirada aguardando envio');
  // Meanwhile the runner revokes the authorisation, which desk A cannot know.
  const revoked = await request.delete(`/api/inscricoes/${id}/retirada-autorizada/`, { headers: runnerAuth });
  expect(revoked.status()).toBe(200);

  // Desk B offline finds the same runner by name and hands the same kit out.
  await b.context.setOffline(true);
  await b.page.getByLabel('Nome, CPF, nº da inscrição ou de peito').fill('jurema sem');
  await b.page.getByRole('button', { name: 'Buscar' }).click();
  await b.page.getByRole('button', { name: `Ver inscrição de ${name}` }).click();
  await b.page
    .getByRole('region', { name })
    .getByRole('button', { name: 'Confirmar entrega do kit' })
    .click();
  await expect(b.status).toContainText('1 retirada aguardando envio');

  // A reconnects first: its pickup is the kit's. Then B: told who and when.
  await a.context.setOffline(false);
  await expect(a.status).toContainText('Nenhuma retirada aguardando envio');
  // A's pickup stands, with the person it went to, and comes back for staff to check with the runner.
  await expect(a.status.getByRole('listitem')).toContainText(
    /a autorização para retirar o kit foi revogada ou trocada depois que esta mesa baixou a lista: o kit saiu com Dorival Vizinho\./,
  );
  await b.context.setOffline(false);
  await expect(b.status).toContainText('Nenhuma retirada aguardando envio');
  await expect(b.status.getByRole('listitem')).toContainText(
    new RegExp(
      `${name} \\(nº ${id}\\): esta mesa entregou em .*, mas o kit já tinha sido retirado em .* por Otávio Operador \\(Mesa A\\)\\.`,
    ),
  );

  // The ledger: one pickup, desk A's.
  const login = await request.post('/api/painel/auth/login/', { data: STAFF.admin });
  const snapshot = await request.get(`/api/painel/checkin/offline/?evento=${event.id}`, {
    headers: { authorization: `Token ${(await login.json()).token}` },
  });
  const entry = (await snapshot.json()).inscricoes.find((i: { id: number }) => i.id === id);
  expect(entry.retirada).toMatchObject({ por: 'Otávio Operador', mesa: 'Mesa A' });
  await Promise.all([a.context.close(), b.context.close()]);
});
