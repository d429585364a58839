import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderRoutes } from '../test/render-routes.test-utils.tsx';
import { ProductCard } from './product-card.tsx';

const card = (extra: { preco_de?: number }) =>
  renderRoutes(
    [
      {
        path: '/',
        element: (
          <ul>
            <ProductCard product={{ id: 7, name: 'Regata Brisa', price: 99.9, images: [], ...extra }} />
          </ul>
        ),
      },
    ],
    '/',
  );

describe('a product card’s price (decision 0082)', () => {
  afterEach(cleanup);

  it('on sale: the list price struck through before the price, read as "De … por …"', async () => {
    card({ preco_de: 129.9 });
    const item = await screen.findByRole('listitem');
    const struck = item.querySelector('s');
    expect(struck?.textContent).toMatch(/^R\$\s129,90$/);
    expect(within(item).getByText(/^De$/, { exact: false, selector: '.sr-only' })).toBeTruthy();
    expect(struck?.parentElement?.textContent).toMatch(/^De R\$\s129,90por R\$\s99,90$/);
  });

  it('off sale: the price alone, nothing struck through', async () => {
    card({});
    const item = await screen.findByRole('listitem');
    expect(item.querySelector('s')).toBeNull();
    expect(item.textContent).toMatch(/R\$\s99,90/);
    expect(item.textContent).not.toMatch(/De R\$/);
  });
});
