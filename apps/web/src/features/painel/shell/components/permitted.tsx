import type { PainelPermission } from '@passada/core/contracts/painel';
import type { ReactNode } from 'react';
import { useStaffCan } from '../api/auth.ts';

/**
 * A back-office page only for roles with `needs`; the others see why instead (the server refuses their
 * calls anyway: this only spares them a page of errors).
 */
export function Permitted({
  needs,
  children,
}: {
  needs: PainelPermission | PainelPermission[];
  children: ReactNode;
}) {
  if (useStaffCan(needs)) return children;
  return (
    <p role="alert" className="rounded-md border border-stone-300 p-4 dark:border-stone-700">
      Seu perfil não tem acesso a esta página.
    </p>
  );
}
