import { Suspense, useEffect } from 'react';
import { Outlet, useLocation, useNavigationType } from 'react-router';
import { PageErrorBoundary } from '../route-error-page.tsx';
import { DemoStrip } from './demo-strip.tsx';
import { PageSkeleton } from './page-skeleton.tsx';
import { SiteFooter } from './site-footer.tsx';
import { SiteHeader } from './site-header.tsx';

/** A new page starts at the top; going back or forward leaves the browser to restore the position. */
function ScrollToTop() {
  const { pathname } = useLocation();
  const navigationType = useNavigationType();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the effect runs on each new address, which it does not read.
  useEffect(() => {
    if (navigationType !== 'POP') window.scrollTo(0, 0);
  }, [pathname, navigationType]);
  return null;
}

export function RootLayout() {
  const { pathname } = useLocation();
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
        {/* A page that fails shows the error page, header and footer kept; one whose code is on its way, a skeleton. */}
        <PageErrorBoundary resetKey={pathname}>
          <Suspense fallback={<PageSkeleton />}>
            <Outlet />
          </Suspense>
        </PageErrorBoundary>
      </div>
      <SiteFooter />
      <ScrollToTop />
    </div>
  );
}
