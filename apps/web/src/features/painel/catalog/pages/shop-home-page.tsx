import { useState } from 'react';
import { FormStatus } from '../../../../components/form-field.tsx';
import { useStaffCan } from '../../shell/api/auth.ts';
import { errorMessage } from '../../shell/utils/error-message.ts';
import { useBanners, useFeatured } from '../api/home.ts';
import { BannersEditor } from '../components/banners-editor.tsx';
import { FeaturedEditor } from '../components/featured-editor.tsx';

/** `/painel/home-da-loja`: what the shop's home page shows, its featured products and banners (who edits the catalogue edits; the other roles read). */
export default function ShopHomePage() {
  const canEdit = useStaffCan('catalogo');
  const featured = useFeatured();
  const banners = useBanners();
  // "Recarregar" after another person's save: the editor starts again from the list as it is now. A
  // save of one's own only moves the version on, keeping the editor (and its message) as it is.
  const [rounds, setRounds] = useState({ featured: 0, banners: 0 });
  const reloadFeatured = async () => {
    await featured.refetch();
    setRounds((r) => ({ ...r, featured: r.featured + 1 }));
  };
  const reloadBanners = async () => {
    await banners.refetch();
    setRounds((r) => ({ ...r, banners: r.banners + 1 }));
  };

  return (
    <section>
      <h1 className="mb-4 text-2xl font-bold">Home da loja</h1>
      {featured.isError ? <FormStatus message={errorMessage(featured.error)} tone="error" /> : null}
      {featured.data ? (
        <FeaturedEditor
          key={`destaques-${rounds.featured}`}
          featured={featured.data}
          canEdit={canEdit}
          onReload={reloadFeatured}
        />
      ) : (
        <p>Carregando…</p>
      )}
      {banners.isError ? <FormStatus message={errorMessage(banners.error)} tone="error" /> : null}
      {banners.data ? (
        <BannersEditor
          key={`banners-${rounds.banners}`}
          banners={banners.data}
          canEdit={canEdit}
          onReload={reloadBanners}
        />
      ) : null}
    </section>
  );
}
