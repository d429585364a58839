import * as RadixDialog from '@radix-ui/react-dialog';
import { type ReactNode, useCallback, useRef, useState } from 'react';

interface ModalProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  title: string;
  /** Visually hidden title when the dialog shows its own heading-like content. */
  hideTitle?: boolean;
  children: ReactNode;
  className?: string;
}

const overlayClass = 'fixed inset-0 z-40 bg-black/50';
const closeButtonClass =
  'absolute right-3 top-3 rounded-md p-1 text-2xl leading-none text-stone-600 hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-brand-600 dark:text-stone-300 dark:hover:bg-stone-800';

/** A centred, accessible dialog (Radix): focus trap, Esc to close, a title every screen reader announces. */
export function Modal({ open, onOpenChange, title, hideTitle, children, className }: ModalProps) {
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className={overlayClass} />
        <RadixDialog.Content
          aria-describedby={undefined}
          className={`fixed left-1/2 top-1/2 z-50 max-h-[90vh] w-[min(92vw,32rem)] -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-xl bg-white p-6 shadow-xl dark:bg-stone-900 ${className ?? ''}`}
        >
          <RadixDialog.Title className={hideTitle ? 'sr-only' : 'pr-8 text-xl font-bold'}>
            {title}
          </RadixDialog.Title>
          {children}
          <RadixDialog.Close className={closeButtonClass} aria-label="Fechar">
            ×
          </RadixDialog.Close>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

interface SheetProps extends Omit<ModalProps, 'hideTitle'> {
  side: 'left' | 'right';
}

/** A dialog that slides in from one side (mobile menu, cart). */
export function Sheet({ open, onOpenChange, title, children, side }: SheetProps) {
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className={overlayClass} />
        <RadixDialog.Content
          aria-describedby={undefined}
          className={`sheet-${side} fixed top-0 z-50 flex h-full w-[min(88vw,26rem)] flex-col overflow-y-auto bg-white p-6 shadow-xl dark:bg-stone-900 ${side === 'left' ? 'left-0' : 'right-0'}`}
        >
          <RadixDialog.Title className="pr-8 text-xl font-bold">{title}</RadixDialog.Title>
          {children}
          <RadixDialog.Close className={closeButtonClass} aria-label="Fechar">
            ×
          </RadixDialog.Close>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

interface AlertMessageProps {
  message: string | null;
  onClose(): void;
}

/**
 * The spec's alerts (e.g. 'VOCÊ PRECISA SELECIONAR A COR E O TAMANHO ANTES!') as an accessible
 * alert dialog instead of window.alert: the message is the dialog's name, one OK button closes it.
 */
export function AlertMessage({ message, onClose }: AlertMessageProps) {
  return (
    <AlertFrame title={message} onClose={onClose}>
      <RadixDialog.Close className="mt-5 rounded-lg bg-brand-700 px-6 py-2 font-semibold text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700">
        OK
      </RadixDialog.Close>
    </AlertFrame>
  );
}

/** A centred alert dialog named by its message, open while `title` is not null. */
function AlertFrame(props: { title: string | null; onClose(): void; children: ReactNode }) {
  return (
    <RadixDialog.Root open={props.title !== null} onOpenChange={(open) => !open && props.onClose()}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className={overlayClass} />
        <RadixDialog.Content
          role="alertdialog"
          aria-describedby={undefined}
          className="fixed left-1/2 top-1/2 z-50 w-[min(92vw,28rem)] -translate-x-1/2 -translate-y-1/2 rounded-xl bg-white p-6 text-center shadow-xl dark:bg-stone-900"
        >
          <RadixDialog.Title className="text-lg font-bold">{props.title}</RadixDialog.Title>
          {props.children}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

/** `const [alertElement, showAlert] = useAlert()`: showAlert(message, then?) runs `then` after OK. */
export function useAlert(): [ReactNode, (message: string, then?: () => void) => void] {
  const [message, setMessage] = useState<string | null>(null);
  const after = useRef<(() => void) | undefined>(undefined);
  const show = useCallback((next: string, then?: () => void) => {
    after.current = then;
    setMessage(next);
  }, []);
  const close = useCallback(() => {
    setMessage(null);
    const then = after.current;
    after.current = undefined;
    then?.();
  }, []);
  return [<AlertMessage key="alert" message={message} onClose={close} />, show];
}

interface ConfirmDialogProps {
  /** The question; the dialog is open while it is not null. */
  question: string | null;
  confirmLabel: string;
  onConfirm(): void;
  onCancel(): void;
}

/** Asks before something that cannot be undone (e.g. deleting an address); Cancelar is focused first. */
export function ConfirmDialog({ question, confirmLabel, onConfirm, onCancel }: ConfirmDialogProps) {
  return (
    <AlertFrame title={question} onClose={onCancel}>
      <div className="mt-5 flex flex-wrap justify-center gap-3">
        <RadixDialog.Close className="rounded-lg border border-stone-300 px-6 py-2 font-semibold hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 dark:border-stone-700 dark:hover:bg-stone-800">
          Cancelar
        </RadixDialog.Close>
        <button
          type="button"
          onClick={onConfirm}
          className="rounded-lg bg-red-700 px-6 py-2 font-semibold text-white hover:bg-red-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-700"
        >
          {confirmLabel}
        </button>
      </div>
    </AlertFrame>
  );
}
