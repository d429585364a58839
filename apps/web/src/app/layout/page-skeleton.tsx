/**
 * What the content area shows while a page's code loads on its first visit (the router applies
 * navigations at once, so the old page is already gone). It fades in only after 150 ms
 * (`.page-skeleton`, index.css): a page whose code is at hand does not flash it.
 */
export function PageSkeleton() {
  return (
    <main className="page-skeleton mx-auto max-w-6xl px-4 py-10">
      <p role="status" className="sr-only">
        Carregando página...
      </p>
      <div
        aria-hidden="true"
        className="h-9 w-64 max-w-full animate-pulse rounded-lg bg-stone-100 dark:bg-stone-800"
      />
      <div aria-hidden="true" className="mt-8 h-72 animate-pulse rounded-xl bg-stone-100 dark:bg-stone-800" />
    </main>
  );
}
