/** The shop's button looks, kept apart from the form fields so pages without forms do not load them. */
export const primaryButtonClass =
  'rounded-lg bg-brand-700 px-5 py-2 font-semibold text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:opacity-60';
export const secondaryButtonClass =
  'rounded-lg border border-stone-300 px-4 py-2 font-medium hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-brand-700 dark:border-stone-700 dark:hover:bg-stone-800';
/** A choice that leads on (a payment method not chosen yet): the brand's outline, clearly the way forward. */
export const choiceButtonClass =
  'rounded-lg border-2 border-brand-700 px-5 py-2 font-semibold text-brand-800 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:opacity-60 dark:border-brand-500 dark:text-brand-100 dark:hover:bg-stone-800';
