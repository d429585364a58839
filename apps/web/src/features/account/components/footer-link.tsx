import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { linkClass } from '../../../components/form-field.tsx';

/** The one link under the form of a sign-in page: back to the login, or on to the next step. */
export function FooterLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <p className="mt-6 text-sm">
      <Link to={to} className={linkClass}>
        {children}
      </Link>
    </p>
  );
}
