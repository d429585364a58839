import type { RunnerPhoto } from '@passada/core/contracts/results';

const link = 'font-semibold text-brand-800 underline dark:text-brand-100';

/**
 * The runner's photos of the race, free (decision 0064, later): the ones staff tagged with the bib, each
 * opening its larger copy; the brand's mark is in every copy. Lazy, so a cheap phone loads them only as
 * the runner scrolls to them.
 */
export function RacePhotos({ photos, name }: { photos: RunnerPhoto[]; name: string }) {
  if (!photos.length) return null;
  return (
    <section aria-labelledby="fotos-da-prova" className="mb-6">
      <h2 id="fotos-da-prova" className="mb-3 text-xl font-bold">
        Fotos da prova
      </h2>
      <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3">
        {photos.map((photo, i) => (
          <li key={photo.id}>
            <a href={photo.grande} className={link} aria-label={`Abrir a foto ${i + 1} em tamanho grande`}>
              <img
                src={photo.url}
                alt={`Foto ${i + 1} de ${photos.length} de ${name} na prova`}
                loading="lazy"
                decoding="async"
                className="aspect-[3/2] w-full rounded object-cover"
              />
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
