import { COMPANY } from './company.ts';

/**
 * The shop's one route table (docs/product.md §2): the web app's router builds its routes from it
 * (`apps/web/src/app/router.tsx`, one page per path) and the server writes each page's head and
 * status from it (`apps/api/src/plugins/seo/page-meta.ts`). It lives in core because the web app and
 * the API may not import each other (docs/architecture.md §9).
 */

/** What the server writes in a page's head, before any JavaScript runs. */
export type PageHead =
  /** Fixed title and description; `noindex` keeps search engines away; `store` adds the shop's JSON-LD. */
  | { kind: 'page'; title: string; description: string; noindex?: boolean; structuredData?: 'store' }
  /** Built from the product `:id`, 404 when there is none. */
  | { kind: 'product' }
  /** Built from the event `:id`, 404 when there is none. */
  | { kind: 'event' }
  /** A page of the event `:id` ("Regulamento: …", "Inscrição: …"), 404 when there is none. */
  | { kind: 'event-page'; what: string; noindex: boolean }
  /** A runner's result (`:id` the event, `:numero` the bib), with Open Graph tags; 404 when there is none. */
  | { kind: 'runner-result' }
  /** Behind a login: exists for everyone, indexed by no one. */
  | { kind: 'private' }
  /** The catch-all: the app's 404 page, with a 404 status. */
  | { kind: 'not-found' };

export interface ShopRoute {
  /** react-router's syntax from the root: `/produto/:id`; `:id` is a positive number; `*` the rest. */
  path: string;
  /** Guests are sent to /login?next=… (the web app's login guard). */
  login?: boolean;
}

/** The category grids: the head's title and description (the page's own heading is the web app's). */
export const CATEGORY_HEADS = {
  feminino: {
    name: 'Feminino',
    description: 'Roupas femininas de corrida: tops, leggings, shorts e regatas.',
  },
  masculino: { name: 'Masculino', description: 'Roupas masculinas de corrida: camisetas, regatas e shorts.' },
  acessorios: { name: 'Acessórios', description: 'Bonés, viseiras, meias e acessórios para correr.' },
  topavaliados: { name: 'Mais bem avaliados', description: 'Os produtos de corrida com as melhores notas.' },
} as const;

export const SHOP_ROUTES = [
  { path: '/' },
  { path: '/feminino' },
  { path: '/masculino' },
  { path: '/acessorios' },
  { path: '/topavaliados' },
  { path: '/produto/:id' },
  { path: '/pesquisa' },
  { path: '/sobrenos' },
  { path: '/lojas' },
  { path: '/privacidade' },
  { path: '/teste' },
  { path: '/login' },
  { path: '/criarconta' },
  { path: '/login/recuperar-senha' },
  { path: '/login/redefinir-senha' },
  { path: '/login/acesso' },
  { path: '/login/confirmar-email' },
  { path: '/fechar-pedido' },
  { path: '/pagar' },
  { path: '/eventos' },
  { path: '/eventos/register/:id' },
  { path: '/eventos/register/:id/ja-me-inscrevi' },
  { path: '/eventos/regulamento/:id' },
  { path: '/eventos/lista-espera/:token' },
  // Race results (docs/decisions/0064): the event's, and one runner's by bib.
  { path: '/eventos/resultados/:id' },
  { path: '/eventos/resultados/:id/:numero' },
  { path: '/user', login: true },
  { path: '/user/pessoal-data', login: true },
  { path: '/user/pedidos', login: true },
  { path: '/user/inscricoes', login: true },
  // Teams the account captains (docs/decisions/0067).
  { path: '/user/equipes', login: true },
  { path: '/user/:username', login: true },
  { path: '/enderecos', login: true },
  { path: '/adicionar-endereco', login: true },
  { path: '/editar-endereco/:id', login: true },
  { path: '/revisar-pedido', login: true },
  { path: '/eventos/register/:id/finalizar', login: true },
  // A registration transferred to you (docs/decisions/0041): paying needs an account.
  { path: '/inscricoes/transferencia/:token', login: true },
  // A team's prepaid place: the member signs in and fills in their own data (docs/decisions/0073).
  { path: '/equipes/vagas/:token', login: true },
  // A captain's invitation: the e-mail's link is the access (docs/decisions/0075).
  { path: '/equipes/convite/:token' },
  // The participant's own link to their registration: the signed token is the access.
  { path: '/inscricoes/link/:token' },
  // The back office: its own sign-in, frame and route table, loaded under /painel.
  { path: '/painel/*' },
  { path: '*' },
] as const satisfies readonly ShopRoute[];

export type ShopPath = (typeof SHOP_ROUTES)[number]['path'];

const PRIVATE: PageHead = { kind: 'private' };

/**
 * The head of every path of the table; the type asks for each path and no other. Kept apart from
 * the paths so the browser's bundle, which needs only the paths, leaves these texts out (built by a
 * call marked pure: a bundler drops an unused object literal only when reading it cannot have effects).
 */
export const PAGE_HEADS: Readonly<Record<ShopPath, PageHead>> = /* @__PURE__ */ (() => {
  const shown = (title: string, description: string): PageHead => ({ kind: 'page', title, description });
  const hidden = (title: string, description: string): PageHead => ({
    kind: 'page',
    title,
    description,
    noindex: true,
  });
  const category = ({ name, description }: { name: string; description: string }) => shown(name, description);
  return {
    '/': shown(
      'Roupas de corrida do Nordeste',
      'Passada: roupas e acessórios de corrida feitos no Nordeste, e inscrições nas melhores corridas de rua.',
    ),
    '/feminino': category(CATEGORY_HEADS.feminino),
    '/masculino': category(CATEGORY_HEADS.masculino),
    '/acessorios': category(CATEGORY_HEADS.acessorios),
    '/topavaliados': category(CATEGORY_HEADS.topavaliados),
    '/produto/:id': { kind: 'product' },
    '/pesquisa': hidden('Pesquisa', 'Pesquise produtos de corrida.'),
    '/sobrenos': shown('Sobre nós', 'Quem faz a Passada, de onde vem e como trabalha.'),
    '/lojas': {
      kind: 'page',
      title: 'Nossa loja',
      description: `Endereço, horário e contatos da loja física: ${COMPANY.address}.`,
      structuredData: 'store',
    },
    '/privacidade': shown(
      'Privacidade',
      'Os dados pessoais que a Passada guarda, por quê, por quanto tempo e como falar com o encarregado.',
    ),
    '/teste': hidden('Teste', 'Página de teste.'),
    '/login': hidden('Entrar', 'Entre na sua conta.'),
    '/criarconta': hidden('Criar conta', 'Crie sua conta na Passada.'),
    '/login/recuperar-senha': hidden('Recuperar senha', 'Recupere sua senha.'),
    '/login/redefinir-senha': hidden('Nova senha', 'Defina uma nova senha.'),
    '/login/acesso': hidden('Link de acesso', 'Entre com o link enviado por e-mail.'),
    '/login/confirmar-email': hidden('Confirmar e-mail', 'Confirme o e-mail da sua conta.'),
    '/fechar-pedido': hidden('Fechar pedido', 'Seu carrinho.'),
    '/pagar': hidden('Pagamento', 'Pagamento do pedido.'),
    '/eventos': shown(
      'Corridas de rua',
      'Calendário de corridas de rua do Nordeste: escolha a prova e a categoria e inscreva-se.',
    ),
    '/eventos/register/:id': { kind: 'event' },
    '/eventos/register/:id/ja-me-inscrevi': { kind: 'event-page', what: 'Inscrição', noindex: true },
    '/eventos/regulamento/:id': { kind: 'event-page', what: 'Regulamento', noindex: false },
    '/eventos/resultados/:id': { kind: 'event-page', what: 'Resultados', noindex: false },
    '/eventos/resultados/:id/:numero': { kind: 'runner-result' },
    // The path carries the runner's signed link: never indexed nor kept.
    '/eventos/lista-espera/:token': PRIVATE,
    '/user': PRIVATE,
    '/user/pessoal-data': PRIVATE,
    '/user/pedidos': PRIVATE,
    '/user/inscricoes': PRIVATE,
    '/user/equipes': PRIVATE,
    '/user/:username': PRIVATE,
    '/enderecos': PRIVATE,
    '/adicionar-endereco': PRIVATE,
    '/editar-endereco/:id': PRIVATE,
    '/revisar-pedido': PRIVATE,
    '/eventos/register/:id/finalizar': { kind: 'event-page', what: 'Inscrição', noindex: true },
    '/inscricoes/transferencia/:token': PRIVATE,
    '/equipes/vagas/:token': PRIVATE,
    '/equipes/convite/:token': PRIVATE,
    '/inscricoes/link/:token': PRIVATE,
    '/painel/*': PRIVATE,
    '*': { kind: 'not-found' },
  };
})();

export interface RouteMatch {
  route: { path: ShopPath; login?: boolean };
  params: Record<string, string>;
}

/** An `:id` is a positive number of at most nine digits, as the API's ids are. */
const ID = /^[1-9]\d{0,8}$/;

function matchOne(pattern: string, segments: string[]): Record<string, string> | null {
  const parts = pattern.split('/').filter(Boolean);
  const params: Record<string, string> = {};
  for (const [i, part] of parts.entries()) {
    if (part === '*') return params;
    const segment = segments[i];
    if (segment === undefined) return null;
    if (part.startsWith(':')) {
      if (part === ':id' && !ID.test(segment)) return null;
      try {
        params[part.slice(1)] = decodeURIComponent(segment);
      } catch {
        return null; // a malformed escape names no page
      }
    } else if (part !== segment) return null;
  }
  return parts.length === segments.length ? params : null;
}

/** How specific a pattern is: plain segments before parameters before the rest (`*`), as react-router ranks. */
function rank(pattern: string): number {
  if (pattern === '*') return -1;
  return pattern
    .split('/')
    .filter(Boolean)
    .reduce((sum, part) => sum + (part === '*' ? 0 : part.startsWith(':') ? 2 : 3), 0);
}

/** The route of the table that shows `pathname` (trailing slashes ignored), with its parameters. */
export function matchShopRoute(pathname: string): RouteMatch {
  const segments = pathname.split('/').filter(Boolean);
  let best: RouteMatch | null = null;
  for (const route of SHOP_ROUTES) {
    const params = matchOne(route.path, segments);
    if (params && (!best || rank(route.path) > rank(best.route.path))) best = { route, params };
  }
  // The table ends with '*', which matches every path.
  return best!;
}
