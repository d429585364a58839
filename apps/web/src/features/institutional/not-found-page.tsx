import { Link } from 'react-router';

export default function NotFoundPage() {
  return (
    <main className="mx-auto flex max-w-xl flex-col items-center px-4 py-20 text-center">
      <h1 className="text-7xl font-black text-brand-700 dark:text-brand-500">404</h1>
      <p className="mt-4 text-xl font-semibold">Oops! Página não encontrada.</p>
      <Link
        to="/"
        className="mt-8 rounded-lg bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-800"
      >
        Voltar para a página inicial
      </Link>
    </main>
  );
}
