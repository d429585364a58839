import * as RadixDialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';

const overlayClass = 'fixed inset-0 z-40 bg-black/50';
const contentClass =
  'fixed left-1/2 top-1/2 z-50 w-[min(92vw,28rem)] -translate-x-1/2 -translate-y-1/2 rounded-xl bg-white p-6 text-center shadow-xl dark:bg-stone-900';

/** A payment in flight: nothing closes it, so the buyer cannot pay twice or leave halfway. */
export function ProcessingModal({
  open,
  text,
  children,
}: {
  open: boolean;
  text: string;
  children?: ReactNode;
}) {
  return (
    <RadixDialog.Root open={open}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className={overlayClass} />
        <RadixDialog.Content
          aria-describedby={undefined}
          aria-busy="true"
          onEscapeKeyDown={(e) => e.preventDefault()}
          onPointerDownOutside={(e) => e.preventDefault()}
          onInteractOutside={(e) => e.preventDefault()}
          className={contentClass}
        >
          <div
            aria-hidden="true"
            className="mx-auto mb-4 size-10 animate-spin rounded-full border-4 border-stone-200 border-t-brand-700"
          />
          <RadixDialog.Title className="text-lg font-bold">{text}</RadixDialog.Title>
          {children ? <div className="mt-3 text-stone-700 dark:text-stone-300">{children}</div> : null}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

/** The confirmation the buyer sees at once after paying (Decreto 7.962: confirm the order immediately). */
export function SuccessModal({
  open,
  title,
  onClose,
  children,
}: {
  open: boolean;
  title: string;
  onClose(): void;
  children?: ReactNode;
}) {
  return (
    <RadixDialog.Root open={open} onOpenChange={(next) => !next && onClose()}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className={overlayClass} />
        <RadixDialog.Content aria-describedby={undefined} className={contentClass}>
          <div
            aria-hidden="true"
            className="mx-auto mb-3 flex size-12 items-center justify-center rounded-full bg-green-100 text-2xl text-green-700"
          >
            ✓
          </div>
          <RadixDialog.Title className="text-xl font-bold">{title}</RadixDialog.Title>
          {children ? <div className="mt-3 text-stone-700 dark:text-stone-300">{children}</div> : null}
          <RadixDialog.Close className="mt-5 rounded-lg bg-brand-700 px-6 py-2 font-semibold text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700">
            Fechar
          </RadixDialog.Close>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
