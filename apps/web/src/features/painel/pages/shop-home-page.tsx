import { useOutletContext } from 'react-router';
import { FormStatus } from '../../../components/form-field.tsx';
import type { Me } from '../api/auth.ts';
import { useBanners, useFeatured } from '../api/home.ts';
import { BannersEditor } from '../components/banners-editor.tsx';
import { FeaturedEditor } from '../components/featured-editor.tsx';
import { errorMessage } from '../utils/error-message.ts';

/** `/painel/home-da-loja`: what the shop's home page shows, its featured products and banners (admins edit). */
export default function ShopHomePage() {
  const me = useOutletContext<Me>();
  const canEdit = me.staff.role === 'admin';
  const featured = useFeatured();
  const banners = useBanners();
  // "Recarregar" after another person's save: the editor starts again from the list as it is now.
  const reloadFeatured = async () => void (await featured.refetch());
  const reloadBanners = async () => void (await banners.refetch());

  return (
    <section>
      <h1 className="mb-4 text-2xl font-bold">Home da loja</h1>
      {featured.isError ? <FormStatus message={errorMessage(featured.error)} tone="error" /> : null}
      {featured.data ? (
        <FeaturedEditor
          key={featured.data.versao}
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
          key={banners.data.versao}
          banners={banners.data}
          canEdit={canEdit}
          onReload={reloadBanners}
        />
      ) : null}
    </section>
  );
}
