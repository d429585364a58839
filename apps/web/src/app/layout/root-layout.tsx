import { Outlet } from 'react-router';

export function RootLayout() {
  return (
    <>
      <header>
        <a href="/">Passada</a>
      </header>
      <Outlet />
    </>
  );
}
