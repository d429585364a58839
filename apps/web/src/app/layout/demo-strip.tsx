import { useSimulatedPayments } from '../../lib/config-api.ts';

/** While payments are simulated nobody may take the shop for a real one: every page says so. */
export function DemoStrip() {
  if (!useSimulatedPayments()) return null;
  return (
    <div
      role="status"
      aria-label="Aviso de demonstração"
      className="bg-amber-100 px-4 py-1.5 text-center text-sm font-semibold text-stone-900 dark:bg-amber-900 dark:text-amber-50"
    >
      Loja de demonstração: pagamentos simulados. Nenhum valor é cobrado.
    </div>
  );
}
