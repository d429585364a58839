import type { PainelProduct } from '@passada/core/contracts/painel';
import { type ChangeEvent, type FormEvent, useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import {
  FormField,
  FormStatus,
  linkClass,
  primaryButtonClass,
  SelectField,
  TextAreaField,
} from '../../../../components/form-field.tsx';
import { ApiRequestError } from '../../../../lib/api.ts';
import { useStaffCan } from '../../shell/api/auth.ts';
import { useColors, useSizes } from '../../shell/api/options.ts';
import { Choices } from '../../shell/components/choices.tsx';
import { NewOption } from '../../shell/components/new-option.tsx';
import { isStaleVersion, StaleVersionAlert } from '../../shell/components/stale-version-alert.tsx';
import { errorMessage } from '../../shell/utils/error-message.ts';
import { useProduct, useSaveProduct } from '../api/products.ts';
import { GoodsReceipt } from '../components/goods-receipt.tsx';
import { PhotoManager } from '../components/photo-manager.tsx';
import { ProductFiscal } from '../components/product-fiscal.tsx';
import { ProductPublishing } from '../components/product-publishing.tsx';
import { ProductSale } from '../components/product-sale.tsx';
import { SizeGuideEditor } from '../components/size-guide-editor.tsx';
import { StockTable } from '../components/stock-table.tsx';
import { changedFields, type Draft, empty, fromProduct, toBody } from '../utils/product-draft.ts';

/** `/painel/produtos/novo` and `/painel/produtos/:id`: the product's fields, photos and stock. */
export default function ProductPage() {
  const { id } = useParams();
  const productId = id && id !== 'novo' ? Number(id) : null;
  const isAdmin = useStaffCan('catalogo');
  const navigate = useNavigate();
  const product = useProduct(productId);
  const save = useSaveProduct(productId);
  const colors = useColors();
  const sizes = useSizes();
  const [draft, setDraft] = useState<Draft>(empty);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<{ message: string; tone: 'success' | 'error' } | null>(null);
  // The product as the form was filled from: its version goes back with the save. A refetch (after a
  // stock move, say) never refills the form; only opening, saving and "Recarregar" do.
  const [loaded, setLoaded] = useState<PainelProduct | null>(null);
  const [stale, setStale] = useState<string | null>(null);
  const load = (p: PainelProduct) => {
    setDraft(fromProduct(p));
    setLoaded(p);
    setStale(null);
  };

  useEffect(() => {
    if (product.data && loaded?.id !== product.data.id) {
      setDraft(fromProduct(product.data));
      setLoaded(product.data);
    }
  }, [product.data, loaded]);

  // A part saved on its own (publishing, the sale) moves the product's version: the form keeps what was
  // typed and saves from the new one, so the next "Salvar alterações" is not taken for a colleague's.
  const keepVersion = (saved: PainelProduct) => setLoaded((l) => (l ? { ...l, versao: saved.versao } : l));

  const reload = async () => {
    const fresh = await product.refetch();
    if (fresh.data) {
      load(fresh.data);
      setStatus(null);
    }
  };

  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));

  // Text fields bind the same way: the draft's value, the server's error for that key, and a setter.
  const field = (key: 'name' | 'description' | 'price' | 'weight_grams') => ({
    value: draft[key],
    error: errors[key],
    onChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => set(key, e.target.value),
  });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    setStatus(null);
    setStale(null);
    if (productId && !loaded) return;
    try {
      const saved = await save.mutateAsync(
        loaded ? { ...changedFields(draft, loaded), versao: loaded.versao } : toBody(draft),
      );
      if (productId) load(saved);
      setStatus({ message: 'Produto salvo.', tone: 'success' });
      if (!productId) navigate(`/painel/produtos/${saved.id}`, { replace: true });
    } catch (error) {
      // Someone saved first: keep what was typed and offer the current version.
      if (isStaleVersion(error)) {
        setStale(errorMessage(error));
        return;
      }
      if (error instanceof ApiRequestError && error.body?.errors) setErrors(error.body.errors);
      setStatus({ message: errorMessage(error), tone: 'error' });
    }
  };

  if (productId && product.isPending) return <p>Carregando…</p>;
  if (productId && product.isError) return <FormStatus message={errorMessage(product.error)} tone="error" />;

  return (
    <section>
      <p className="mb-2">
        <Link to="/painel/produtos" className={linkClass}>
          ← Produtos
        </Link>
      </p>
      <h1 className="mb-4 text-2xl font-bold">{productId ? draft.name || 'Produto' : 'Novo produto'}</h1>
      <form onSubmit={submit} noValidate className="grid max-w-2xl gap-4">
        <fieldset disabled={!isAdmin} className="grid gap-4">
          <FormField label="Nome" {...field('name')} />
          <TextAreaField label="Descrição" rows={4} {...field('description')} />
          <div className="grid grid-cols-3 gap-4">
            <FormField label="Preço (R$)" inputMode="decimal" {...field('price')} />
            <SelectField
              label="Categoria"
              value={draft.category}
              onChange={(e) => set('category', e.target.value as Draft['category'])}
            >
              <option value="feminino">Feminino</option>
              <option value="masculino">Masculino</option>
              <option value="acessorios">Acessórios</option>
            </SelectField>
            <FormField label="Peso (g)" type="number" {...field('weight_grams')} />
          </div>
          <div className="flex gap-6">
            <label className="flex items-center gap-2">
              <input
                type="checkbox"
                checked={draft.aparecer_home}
                onChange={(e) => set('aparecer_home', e.target.checked)}
              />
              Aparecer na home
            </label>
            <label className="flex items-center gap-2">
              <input
                type="checkbox"
                checked={draft.oculto}
                onChange={(e) => set('oculto', e.target.checked)}
              />
              Oculto na loja
            </label>
          </div>
          <Choices
            legend="Cores"
            options={colors.data}
            chosen={draft.color_ids}
            disabled={!isAdmin}
            onChange={(ids) => set('color_ids', ids)}
          />
          {isAdmin ? (
            <NewOption
              kind="cor"
              onCreated={(c) => setDraft((d) => ({ ...d, color_ids: [...d.color_ids, c.id] }))}
            />
          ) : null}
          <Choices
            legend="Tamanhos"
            options={sizes.data}
            chosen={draft.size_ids}
            disabled={!isAdmin}
            onChange={(ids) => set('size_ids', ids)}
          />
          {isAdmin ? (
            <NewOption
              kind="tamanho"
              onCreated={(s) => setDraft((d) => ({ ...d, size_ids: [...d.size_ids, s.id] }))}
            />
          ) : null}
        </fieldset>
        <FormStatus message={status?.message ?? null} tone={status?.tone ?? 'success'} />
        {stale ? (
          <StaleVersionAlert message={stale} reloadLabel="Recarregar o produto" onReload={reload} />
        ) : null}
        {isAdmin ? (
          <button type="submit" className={`${primaryButtonClass} justify-self-start`}>
            {productId ? 'Salvar alterações' : 'Criar produto'}
          </button>
        ) : null}
      </form>
      {product.data && isAdmin ? (
        <ProductPublishing
          key={`publicacao-${product.data.id}`}
          product={product.data}
          onSaved={keepVersion}
        />
      ) : null}
      {product.data && isAdmin ? <PhotoManager key={product.data.id} product={product.data} /> : null}
      {product.data && isAdmin ? <ProductFiscal productId={product.data.id} /> : null}
      {product.data && isAdmin ? (
        <SizeGuideEditor key={`medidas-${product.data.id}`} product={product.data} />
      ) : null}
      {product.data && isAdmin ? (
        <ProductSale key={`promocao-${product.data.id}`} product={product.data} onSaved={keepVersion} />
      ) : null}
      {product.data ? <GoodsReceipt key={`recebimento-${product.data.id}`} product={product.data} /> : null}
      {product.data ? <StockTable product={product.data} /> : null}
    </section>
  );
}
