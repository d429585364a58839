import { plural } from '@passada/core/plural';
import { lazy, Suspense, useState } from 'react';
import { Link, NavLink } from 'react-router';
import { useCartRegistrations } from '../../lib/cart-registrations-store.ts';
import { itemCount, useCart } from '../../lib/cart-store.ts';
import { useHydrated } from '../../lib/hydration.ts';
import { AccountLinks } from './account-links.tsx';
import { HeaderSearch, SearchIcon } from './header-search.tsx';
import { navLinks } from './nav-links.ts';
import { ThemeToggle } from './theme-toggle.tsx';

// The cart and the mobile menu (and the dialog library under them) are only needed once someone
// opens them: keep them off the first load (the home page's JavaScript budget).
const CartDialog = lazy(() => import('../../features/cart/components/cart-dialog.tsx'));
const MobileMenu = lazy(() => import('./mobile-menu.tsx'));

const iconButton =
  'relative rounded-full p-2 hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-brand-700 dark:hover:bg-stone-800';

export function SiteHeader() {
  const [menuOpen, setMenuOpen] = useState(false);
  const [menuLoaded, setMenuLoaded] = useState(false);
  const [cartOpen, setCartOpen] = useState(false);
  const [cartLoaded, setCartLoaded] = useState(false);
  // Products by quantity, plus one per event registration waiting in the cart.
  const count = itemCount(useCart()) + useCartRegistrations().length;
  // The server's page shows the buttons; they answer once the app has taken it over (until then a
  // tap would be lost).
  const hydrated = useHydrated();

  return (
    <header className="sticky top-0 z-30 border-b border-stone-200 bg-white/95 backdrop-blur dark:border-stone-800 dark:bg-stone-950/95">
      <div className="mx-auto flex max-w-6xl items-center gap-3 px-4 py-3">
        <button
          type="button"
          disabled={!hydrated}
          className={`${iconButton} lg:hidden`}
          aria-label="Abrir menu"
          aria-expanded={menuOpen}
          onClick={() => {
            setMenuLoaded(true);
            setMenuOpen(true);
          }}
          onPointerEnter={() => setMenuLoaded(true)}
          onFocus={() => setMenuLoaded(true)}
        >
          <svg
            aria-hidden="true"
            width="24"
            height="24"
            viewBox="0 0 24 24"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
          >
            <path d="M3 6h18M3 12h18M3 18h18" />
          </svg>
        </button>
        <Link
          to="/"
          className="flex shrink-0 items-center gap-2 text-2xl font-black italic tracking-tight text-brand-700 dark:text-brand-500"
        >
          <img src="/favicon.svg" alt="" width={32} height={32} />
          <span className="pr-1">Passada</span>
          <span className="sr-only">: página inicial</span>
        </Link>
        <nav aria-label="Principal" className="ml-3 hidden shrink-0 lg:block xl:ml-4">
          <ul className="flex gap-3 whitespace-nowrap xl:gap-4">
            {navLinks.map((l) => (
              <li key={l.to}>
                <NavLink
                  to={l.to}
                  className={({ isActive }) =>
                    `font-medium hover:text-brand-700 dark:hover:text-brand-100 ${isActive ? 'text-brand-700 underline underline-offset-4 dark:text-brand-100' : ''}`
                  }
                >
                  {l.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="ml-auto flex items-center gap-2 sm:gap-3">
          {/* Between 1024 and 1280 px there is no room for the field beside the links: a button to the page. */}
          <Link
            to="/pesquisa"
            aria-label="Pesquisar produtos"
            className={`${iconButton} hidden lg:block xl:hidden`}
          >
            <SearchIcon size={24} />
          </Link>
          <HeaderSearch className="hidden w-40 min-w-0 xl:block" />
          <div className="hidden items-center gap-3 lg:flex">
            <AccountLinks />
          </div>
          <ThemeToggle />
          <button
            type="button"
            disabled={!hydrated}
            className={iconButton}
            aria-label={`Carrinho: ${plural(count, 'item', 'itens')}`}
            onClick={() => {
              setCartLoaded(true);
              setCartOpen(true);
            }}
            onPointerEnter={() => setCartLoaded(true)}
            onFocus={() => setCartLoaded(true)}
          >
            <svg
              aria-hidden="true"
              width="24"
              height="24"
              viewBox="0 0 24 24"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
            >
              <path d="M6 7h12l-1 13H7L6 7Z" />
              <path d="M9 7a3 3 0 0 1 6 0" />
            </svg>
            <span
              data-testid="cart-count"
              aria-hidden="true"
              className="absolute -right-0.5 -top-0.5 min-w-5 rounded-full bg-brand-700 px-1 text-center text-xs font-bold leading-5 text-white"
            >
              {count}
            </span>
          </button>
        </div>
      </div>
      {menuLoaded && (
        <Suspense fallback={null}>
          <MobileMenu open={menuOpen} onOpenChange={setMenuOpen} />
        </Suspense>
      )}
      {cartLoaded && (
        <Suspense fallback={null}>
          <CartDialog open={cartOpen} onOpenChange={setCartOpen} />
        </Suspense>
      )}
    </header>
  );
}
