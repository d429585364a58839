import { Outlet, ScrollRestoration } from 'react-router';
import { DemoStrip } from './demo-strip.tsx';
import { SiteFooter } from './site-footer.tsx';
import { SiteHeader } from './site-header.tsx';

export function RootLayout() {
  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#conteudo"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:p-2 focus:text-stone-900"
      >
        Pular para o conteúdo
      </a>
      <DemoStrip />
      <SiteHeader />
      {/* At least one screen tall, so the footer starts below the fold and never jumps when a page's data arrives. */}
      <div id="conteudo" className="min-h-[calc(100svh-4rem)] flex-1">
        <Outlet />
      </div>
      <SiteFooter />
      <ScrollRestoration />
    </div>
  );
}
