import { Component, type ReactNode } from 'react';
import { Link } from 'react-router';
import { primaryButtonClass, secondaryButtonClass } from '../components/button-classes.ts';

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

/**
 * Shows the error page instead of a part of the app that failed to render or to load its code; a new
 * `resetKey` (the address) tries again, so a link elsewhere leaves the error page.
 */
export class PageErrorBoundary extends Component<
  { resetKey: string; children: ReactNode },
  { failedAt: string | null }
> {
  override state: { failedAt: string | null } = { failedAt: null };

  static getDerivedStateFromError() {
    return { failedAt: '' };
  }

  override componentDidCatch() {
    this.setState({ failedAt: this.props.resetKey });
  }

  override componentDidUpdate(previous: { resetKey: string }) {
    if (this.state.failedAt !== null && previous.resetKey !== this.props.resetKey)
      this.setState({ failedAt: null });
  }

  override render() {
    return this.state.failedAt !== null ? <RouteErrorPage /> : this.props.children;
  }
}
