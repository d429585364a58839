/** The shop's two button looks, kept apart from the form fields so pages without forms do not load them. */
export const primaryButtonClass =
  'rounded-lg bg-brand-700 px-5 py-2 font-semibold text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:opacity-60';
export const secondaryButtonClass =
  'rounded-lg border border-stone-300 px-4 py-2 font-medium hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-brand-700 dark:border-stone-700 dark:hover:bg-stone-800';
