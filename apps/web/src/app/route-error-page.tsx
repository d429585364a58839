import { Link } from 'react-router';
import { primaryButtonClass, secondaryButtonClass } from '../components/form-field.tsx';

/**
 * What the visitor sees when a page fails to load or to render, instead of a blank screen. Trying
 * again reloads the page, which also fetches a newer build's files after a deploy.
 */
export function RouteErrorPage() {
  return (
    <main className="mx-auto flex max-w-xl flex-col items-center px-4 py-20 text-center">
      <h1 className="text-3xl font-bold">Algo deu errado</h1>
      <p className="mt-4 text-stone-700 dark:text-stone-300">
        Não foi possível mostrar esta página. Tente de novo em instantes.
      </p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <button type="button" className={primaryButtonClass} onClick={() => window.location.reload()}>
          Tentar de novo
        </button>
        <Link to="/" className={secondaryButtonClass}>
          Voltar para a página inicial
        </Link>
      </div>
    </main>
  );
}
