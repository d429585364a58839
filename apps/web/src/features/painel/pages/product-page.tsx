import { type PainelProduct, STALE_VERSION_CODE } from '@passada/core/contracts/painel';
import { useQueryClient } from '@tanstack/react-query';
import { type ChangeEvent, type FormEvent, useEffect, useState } from 'react';
import { Link, useNavigate, useOutletContext, useParams } from 'react-router';
import {
  FormField,
  FormStatus,
  linkClass,
  primaryButtonClass,
  SelectField,
  secondaryButtonClass,
  TextAreaField,
} from '../../../components/form-field.tsx';
import { ApiRequestError } from '../../../lib/api.ts';
import { PhotoManager } from '../components/photo-manager.tsx';
import { StockTable } from '../components/stock-table.tsx';
import {
  errorMessage,
  type Me,
  type NamedOption,
  painelFetch,
  painelKeys,
  useColors,
  useProduct,
  useSizes,
} from '../painel-api.ts';

interface Draft {
  name: string;
  description: string;
  price: string;
  category: 'feminino' | 'masculino' | 'acessorios';
  aparecer_home: boolean;
  oculto: boolean;
  weight_grams: string;
  color_ids: number[];
  size_ids: number[];
}

const empty: Draft = {
  name: '',
  description: '',
  price: '',
  category: 'feminino',
  aparecer_home: false,
  oculto: false,
  weight_grams: '300',
  color_ids: [],
  size_ids: [],
};

function fromProduct(p: PainelProduct): Draft {
  return {
    name: p.name,
    description: p.description,
    price: String(p.price).replace('.', ','),
    category: p.category,
    aparecer_home: p.aparecer_home,
    oculto: p.oculto,
    weight_grams: String(p.weight_grams),
    color_ids: [...new Set(p.stock.map((s) => s.color.id))],
    size_ids: [...new Set(p.stock.map((s) => s.size.id))],
  };
}

/** The wire's body from the draft: price in reais as a number, weight in grams. */
function toBody(d: Draft) {
  return {
    ...d,
    price: Number(d.price.replace(/\./g, '').replace(',', '.')),
    weight_grams: Number(d.weight_grams),
  };
}

/** Only what the person changed since the form was filled: a PATCH changes only the fields it sends. */
function changedFields(draft: Draft, from: PainelProduct) {
  const now = toBody(draft);
  const was = toBody(fromProduct(from));
  return Object.fromEntries(
    Object.entries(now).filter(
      ([key, value]) => JSON.stringify(value) !== JSON.stringify(was[key as keyof typeof was]),
    ),
  );
}

function Choices(props: {
  legend: string;
  options: NamedOption[] | undefined;
  chosen: number[];
  disabled: boolean;
  onChange(ids: number[]): void;
}) {
  return (
    <fieldset className="flex flex-wrap gap-3" disabled={props.disabled}>
      <legend className="mb-1 text-sm font-medium">{props.legend}</legend>
      {props.options?.map((o) => (
        <label key={o.id} className="flex items-center gap-1 text-sm">
          <input
            type="checkbox"
            checked={props.chosen.includes(o.id)}
            onChange={(e) =>
              props.onChange(
                e.target.checked ? [...props.chosen, o.id] : props.chosen.filter((id) => id !== o.id),
              )
            }
          />
          {o.hex ? (
            <span className="inline-block size-3 rounded-full border" style={{ background: o.hex }} />
          ) : null}
          {o.name}
        </label>
      ))}
    </fieldset>
  );
}

/** `/painel/produtos/novo` and `/painel/produtos/:id`: the product's fields, photos and stock. */
export default function ProductPage() {
  const { id } = useParams();
  const productId = id && id !== 'novo' ? Number(id) : null;
  const me = useOutletContext<Me>();
  const isAdmin = me.staff.role === 'admin';
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const product = useProduct(productId);
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
      const saved = await painelFetch<PainelProduct>(productId ? `/products/${productId}/` : '/products/', {
        method: productId ? 'PATCH' : 'POST',
        body: loaded ? { ...changedFields(draft, loaded), versao: loaded.versao } : toBody(draft),
      });
      queryClient.setQueryData(painelKeys.product(saved.id), saved);
      await queryClient.invalidateQueries({ queryKey: painelKeys.products });
      if (productId) load(saved);
      setStatus({ message: 'Produto salvo.', tone: 'success' });
      if (!productId) navigate(`/painel/produtos/${saved.id}`, { replace: true });
    } catch (error) {
      // Someone saved first: keep what was typed and offer the current version.
      if (error instanceof ApiRequestError && error.body?.code === STALE_VERSION_CODE) {
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
          <Choices
            legend="Tamanhos"
            options={sizes.data}
            chosen={draft.size_ids}
            disabled={!isAdmin}
            onChange={(ids) => set('size_ids', ids)}
          />
        </fieldset>
        <FormStatus message={status?.message ?? null} tone={status?.tone ?? 'success'} />
        {stale ? (
          <div className="rounded-lg border border-red-300 bg-red-50 p-3 dark:border-red-800 dark:bg-red-950">
            <p role="alert" className="font-medium text-red-700 dark:text-red-400">
              {stale}
            </p>
            <button type="button" className={`${secondaryButtonClass} mt-2`} onClick={() => void reload()}>
              Recarregar o produto
            </button>
            <p className="mt-1 text-sm">O que você digitou continua no formulário até você recarregar.</p>
          </div>
        ) : null}
        {isAdmin ? (
          <button type="submit" className={`${primaryButtonClass} justify-self-start`}>
            {productId ? 'Salvar alterações' : 'Criar produto'}
          </button>
        ) : null}
      </form>
      {product.data && isAdmin ? <PhotoManager key={product.data.id} product={product.data} /> : null}
      {product.data ? <StockTable product={product.data} /> : null}
    </section>
  );
}
