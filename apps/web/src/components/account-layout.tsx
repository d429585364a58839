import type { ReactNode } from 'react';
import { AccountMenu } from './account-menu.tsx';

/** The account pages: side menu and content (the router requires login for them). */
export function AccountLayout({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-10 md:flex-row">
      <AccountMenu />
      <section className="min-w-0 flex-1">
        <h1 className="mb-6 text-2xl font-bold">{title}</h1>
        {children}
      </section>
    </main>
  );
}
