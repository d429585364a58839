import { COMPANY } from '@passada/core/company';
import { Link } from 'react-router';
import { topRatedLink } from './nav-links.ts';

/** Footer links (spec §2) and the seller identification Decreto 7.962/2013 requires of online shops. */
export function SiteFooter() {
  return (
    <footer className="mt-16 border-t border-stone-200 bg-stone-100 text-sm dark:border-stone-800 dark:bg-stone-900">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:grid-cols-2">
        <nav aria-label="Rodapé">
          <ul className="flex flex-wrap gap-5 font-medium">
            <li>
              <Link to="/" className="hover:underline">
                Home
              </Link>
            </li>
            <li>
              <Link to="/sobrenos" className="hover:underline">
                Sobre nós
              </Link>
            </li>
            <li>
              <Link to="/lojas" className="hover:underline">
                Contato
              </Link>
            </li>
            <li>
              <Link to={topRatedLink.to} className="hover:underline">
                {topRatedLink.label}
              </Link>
            </li>
            <li>
              <Link to="/pesquisa" className="hover:underline">
                Pesquisa
              </Link>
            </li>
            <li>
              <Link to="/privacidade" className="hover:underline">
                Privacidade
              </Link>
            </li>
          </ul>
          <p className="mt-4 text-stone-700 dark:text-stone-300">
            Roupas e acessórios de corrida feitos no Nordeste.
          </p>
        </nav>
        <address className="not-italic leading-relaxed text-stone-700 dark:text-stone-300">
          <strong className="text-stone-900 dark:text-stone-100">{COMPANY.legalName}</strong>
          <br />
          CNPJ {COMPANY.cnpj}
          <br />
          {COMPANY.address}
          <br />
          E-mail:{' '}
          <a href={`mailto:${COMPANY.email}`} className="underline">
            {COMPANY.email}
          </a>
          <br />
          Telefone:{' '}
          <a href={`tel:${COMPANY.phoneE164}`} className="underline">
            {COMPANY.phone}
          </a>
        </address>
      </div>
    </footer>
  );
}
