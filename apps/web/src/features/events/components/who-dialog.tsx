import { Modal } from '../../../components/dialog.tsx';

interface WhoDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  onChoose(paraMim: boolean): void;
}

/** 'Para quem é a inscrição?' (docs/product.md §4). */
export function WhoDialog({ open, onOpenChange, onChoose }: WhoDialogProps) {
  const button =
    'rounded-lg px-4 py-3 font-semibold focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700';
  return (
    <Modal open={open} onOpenChange={onOpenChange} title="Para quem é a inscrição?">
      <div className="mt-5 grid gap-3 sm:grid-cols-2">
        <button
          type="button"
          onClick={() => onChoose(true)}
          className={`${button} bg-brand-700 text-white hover:bg-brand-800`}
        >
          Para mim
        </button>
        <button
          type="button"
          onClick={() => onChoose(false)}
          className={`${button} border-2 border-brand-700 text-brand-800 hover:bg-brand-50 dark:text-brand-100 dark:hover:bg-stone-800`}
        >
          Para outra pessoa
        </button>
      </div>
    </Modal>
  );
}
