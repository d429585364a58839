import { Link } from 'react-router';
import { Sheet } from '../../components/dialog.tsx';
import { AccountLinks } from './account-links.tsx';
import { HeaderSearch } from './header-search.tsx';
import { navLinks, topRatedLink } from './nav-links.ts';

interface MobileMenuProps {
  open: boolean;
  onOpenChange(open: boolean): void;
}

/** The phone menu: slides in from the left and repeats the header's links (spec §2). */
export default function MobileMenu({ open, onOpenChange }: MobileMenuProps) {
  const close = () => onOpenChange(false);
  return (
    <Sheet open={open} onOpenChange={onOpenChange} title="Menu" side="left">
      <HeaderSearch className="mt-6" onSearch={close} />
      <nav aria-label="Menu principal" className="mt-4">
        <ul className="flex flex-col gap-1">
          {[...navLinks, topRatedLink].map((l) => (
            <li key={l.to}>
              <Link
                to={l.to}
                onClick={close}
                className="block rounded-lg px-3 py-3 text-lg font-medium hover:bg-stone-100 dark:hover:bg-stone-800"
              >
                {l.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <div className="mt-6 flex flex-wrap items-center gap-3 border-t border-stone-200 pt-6 dark:border-stone-800">
        <AccountLinks onNavigate={close} />
      </div>
    </Sheet>
  );
}
