import { createBrowserRouter } from 'react-router';

export const router = createBrowserRouter([
  {
    path: '/',
    element: (
      <main>
        <h1>Passada</h1>
      </main>
    ),
  },
]);
