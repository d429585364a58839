import { COMPANY } from '@passada/core/company';
import { useSyncExternalStore } from 'react';

const ADDRESS = COMPANY.address;
const OSM_URL = 'https://www.openstreetmap.org/?mlat=-3.7250&mlon=-38.4950#map=17/-3.7250/-38.4950';
/** The store's block with its marker; the server's CSP lets exactly this site into a frame. */
const OSM_EMBED_URL =
  'https://www.openstreetmap.org/export/embed.html?bbox=-38.4990%2C-3.7280%2C-38.4910%2C-3.7220&layer=mapnik&marker=-3.7250%2C-38.4950';

function subscribeOnline(onChange: () => void) {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}
const isOnline = () => navigator.onLine;

const SOCIAL = [
  { label: 'Instagram', href: 'https://www.instagram.com/passadacorrida' },
  { label: 'Facebook', href: 'https://www.facebook.com/passadacorrida' },
  { label: 'YouTube', href: 'https://www.youtube.com/@passadacorrida' },
] as const;

/** The real map when the browser is online; the drawing when it is not (and the link to the full map). */
function StoreMap() {
  const online = useSyncExternalStore(subscribeOnline, isOnline, () => false);
  if (!online) return <StoreDrawing />;
  return (
    <iframe
      src={OSM_EMBED_URL}
      title="Mapa da loja na Av. Beira Mar, Meireles, Fortaleza (OpenStreetMap)"
      width={640}
      height={360}
      loading="lazy"
      referrerPolicy="no-referrer"
      className="aspect-[16/9] h-auto w-full rounded-xl border border-stone-300 dark:border-stone-700"
    />
  );
}

/** A drawn map for when there is no connection: nothing from third parties, and it still opens the real map. */
function StoreDrawing() {
  return (
    <a
      href={OSM_URL}
      target="_blank"
      rel="noreferrer"
      className="block overflow-hidden rounded-xl border border-stone-300 dark:border-stone-700"
    >
      <svg
        viewBox="0 0 640 360"
        width={640}
        height={360}
        role="img"
        aria-labelledby="mapa-titulo"
        className="h-auto w-full"
      >
        <title id="mapa-titulo">
          Mapa da loja na Av. Beira Mar, Meireles, Fortaleza. Abrir no OpenStreetMap
        </title>
        <rect width="640" height="360" fill="#f1ede4" />
        <path d="M0 250 C120 230 200 270 320 255 S520 230 640 245 V360 H0Z" fill="#9fd3e6" />
        <text x="624" y="320" textAnchor="end" fontSize="16" fill="#2b6f8a" fontFamily="system-ui">
          Oceano Atlântico
        </text>
        <path
          d="M0 232 C120 212 200 252 320 237 S520 212 640 227"
          stroke="#fff"
          strokeWidth="14"
          fill="none"
        />
        <text x="40" y="218" fontSize="14" fill="#57534e" fontFamily="system-ui">
          Av. Beira Mar
        </text>
        <g stroke="#fff" strokeWidth="10">
          <path d="M120 0 V225" />
          <path d="M260 0 V245" />
          <path d="M420 0 V230" />
          <path d="M560 0 V225" />
          <path d="M0 80 H640" />
          <path d="M0 160 H640" />
        </g>
        <text x="430" y="70" fontSize="13" fill="#57534e" fontFamily="system-ui">
          Meireles
        </text>
        <g transform="translate(340 200)">
          <path d="M0 0 C-18 -22 -18 -44 0 -50 C18 -44 18 -22 0 0Z" fill="#c2410c" />
          <circle cx="0" cy="-34" r="7" fill="#fff" />
        </g>
        <text x="360" y="176" fontSize="16" fontWeight="bold" fill="#7c2d12" fontFamily="system-ui">
          Passada
        </text>
      </svg>
    </a>
  );
}

export default function StoresPage() {
  return (
    <main className="mx-auto max-w-6xl px-4 py-10">
      <h1 className="mb-8 text-3xl font-black tracking-tight">Lojas</h1>
      <div className="grid gap-8 md:grid-cols-2">
        <div className="flex flex-col gap-6 leading-relaxed">
          <section>
            <h2 className="mb-2 text-xl font-bold">Endereço</h2>
            <address className="not-italic">
              Passada Artigos Esportivos Ltda.
              <br />
              {ADDRESS}
            </address>
          </section>
          <section>
            <h2 className="mb-2 text-xl font-bold">Contato</h2>
            <p>
              Telefone:{' '}
              <a href={`tel:${COMPANY.phoneE164}`} className="underline">
                {COMPANY.phone}
              </a>
            </p>
            <p>
              E-mail:{' '}
              <a href={`mailto:${COMPANY.email}`} className="underline">
                {COMPANY.email}
              </a>
            </p>
          </section>
          <section>
            <h2 className="mb-2 text-xl font-bold">Horário de funcionamento</h2>
            <ul>
              <li>Segunda a sábado: 9:00–11:30 e 14:00–18:00</li>
              <li>Domingo: fechado</li>
            </ul>
          </section>
          <section>
            <h2 className="mb-2 text-xl font-bold">Redes sociais</h2>
            <ul className="flex gap-4">
              {SOCIAL.map((s) => (
                <li key={s.label}>
                  <a href={s.href} target="_blank" rel="noreferrer" className="font-medium underline">
                    {s.label}
                  </a>
                </li>
              ))}
            </ul>
          </section>
        </div>
        <section>
          <h2 className="mb-2 text-xl font-bold">Como chegar</h2>
          <StoreMap />
          <p className="mt-2 text-sm">
            <a href={OSM_URL} target="_blank" rel="noreferrer" className="underline">
              Ver o endereço no OpenStreetMap
            </a>
          </p>
        </section>
      </div>
    </main>
  );
}
